/**
 * WeChat reads `aria-role` and `aria-label` on view, text and image (base library 2.7.1+), but
 * Taro's weapp templates only carry the attributes they know, so the props would be dropped at
 * build time. This plugin (what @tarojs/plugin-inject does, whose peer range stops at Taro 4.1)
 * adds the attributes to the compiled templates and tells the runtime to pass them through.
 */
const path = require('node:path');

const { ARIA_COMPONENTS } = require('./aria-attrs');

module.exports = (ctx) => {
  ctx.registerMethod({
    name: 'onSetupClose',
    fn(platform) {
      if (!platform.template) return; // H5: the DOM keeps aria-* as it is
      platform.template.mergeComponents(ctx, ARIA_COMPONENTS);
      const runtime = path.join(__dirname, 'aria-runtime.js');
      platform.runtimePath = [].concat(platform.runtimePath, runtime);
    },
  });
};
