/**
 * Accessibility attributes for a tappable View or an icon-only control. WeChat's screen reader
 * reads `aria-role` (config/plugins/aria.js carries it into the weapp templates); browsers read
 * `role`, and count `aria-role` as an invalid ARIA attribute, so each build gets its own.
 */
const ROLE_ATTR = process.env.TARO_ENV === 'weapp' ? 'aria-role' : 'role';

export function tapTarget(label: string, selected?: boolean): Record<string, string> {
  return {
    [ROLE_ATTR]: 'button',
    'aria-label': label,
    ...(selected === undefined ? {} : { 'aria-pressed': String(selected) }),
  };
}

/** Decoration a screen reader should skip (icon glyphs beside their text). */
export const decorative: Record<string, string> = { 'aria-hidden': 'true' };
