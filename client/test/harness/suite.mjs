import { after, before } from 'node:test';
import { launchBrowser, newFanPage } from './browser.mjs';
import { startStack } from './stack.mjs';

/**
 * The frame of a browser test file. Before its tests: its own stack (`stackOpts`, or a function
 * that makes them, e.g. with a clock), one headless Chromium, then `setup(stack, fan)` (seed data,
 * open pages). After them: every fan page opened with `fan(opts)` (newFanPage's options) is
 * closed, then the browser and the stack. `fans` lists the pages opened, for page-error checks.
 */
export function browserSuite(stackOpts, setup = async () => undefined) {
  let stack;
  let browser;
  const fans = [];
  const fan = async (opts) => {
    const f = await newFanPage(browser, stack, opts);
    fans.push(f);
    return f;
  };
  before(
    async () => {
      stack = await startStack(typeof stackOpts === 'function' ? stackOpts() : stackOpts);
      browser = await launchBrowser();
      await setup(stack, fan);
    },
    { timeout: 180_000 },
  );
  after(
    async () => {
      for (const f of fans) await f.context.close().catch(() => undefined);
      await browser?.close();
      await stack?.close();
    },
    { timeout: 60_000 },
  );
  return { fan, fans };
}
