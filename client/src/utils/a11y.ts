/**
 * Accessibility attributes for a tappable View or an icon-only control. WeChat's screen reader
 * reads `aria-role` / `aria-label` (config/plugins/aria.js carries them into the weapp
 * templates); browsers read `role`. Both are set so the H5 build and the axe checks see the same.
 */
export function tapTarget(label: string, selected?: boolean): Record<string, string> {
  return {
    role: 'button',
    'aria-role': 'button',
    'aria-label': label,
    ...(selected === undefined ? {} : { 'aria-selected': String(selected) }),
  };
}

/** Decoration a screen reader should skip (icon glyphs beside their text). */
export const decorative: Record<string, string> = { 'aria-hidden': 'true' };
