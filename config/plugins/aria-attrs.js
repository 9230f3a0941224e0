// The accessibility attributes WeChat reads on view, text and image, with Taro's default value
// (an empty string literal). Shared by the build plugin (./aria.js) and its runtime half.
const ARIA = { 'aria-role': "''", 'aria-label': "''", 'aria-hidden': "''", 'aria-pressed': "''" };
module.exports = { ARIA_COMPONENTS: { View: ARIA, Text: ARIA, Image: ARIA } };
