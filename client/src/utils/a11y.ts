/**
 * Accessibility attributes for a tappable View. WeChat's screen reader reads `aria-role`
 * (config/plugins/aria.js carries it into the weapp templates); browsers read `role`, and count
 * `aria-role` as an invalid ARIA attribute, so each build gets its own. The name is the view's
 * own visible text: a label is given only where there is none (an icon), since a label that
 * differs from what is shown confuses speech control ("tap 站票").
 */
const WEAPP = process.env.TARO_ENV === 'weapp';
const ROLE_ATTR = WEAPP ? 'aria-role' : 'role';
/** In a browser a button is reached by keyboard too (WeChat's reader moves focus itself). */
const FOCUSABLE: Record<string, string> = WEAPP ? {} : { tabIndex: '0' };

export function tapTarget(opts: { pressed?: boolean; label?: string } = {}): Record<string, string> {
  return {
    [ROLE_ATTR]: 'button',
    ...FOCUSABLE,
    ...(opts.label === undefined ? {} : { 'aria-label': opts.label }),
    ...(opts.pressed === undefined ? {} : { 'aria-pressed': String(opts.pressed) }),
  };
}

/** Decoration a screen reader should skip (icon glyphs beside their text). */
export const decorative: Record<string, string> = { 'aria-hidden': 'true' };
