/**
 * What run.mjs and profile.mjs share: the 10,000-seat session on a stack of its own, a headless
 * Chromium, and a fresh phone-sized browser context per page load (no cache).
 */
import { startStack } from '../../client/test/harness/stack.mjs';
import { bigVenueSeats, seedShow } from '../../client/test/harness/seed.mjs';
import { PHONE, launchBrowser, pageUrl } from '../../client/test/harness/browser.mjs';

/** The stack (own database and key prefix) with the big session seeded, the map's URL, a browser. */
export async function openStage(tag) {
  const stack = await startStack({ tag, sim: false });
  try {
    const seeded = await seedShow(stack.deps, {
      seats: bigVenueSeats(),
      purchaseLimit: 6,
      title: '万人体育馆压力测试专场',
    });
    const url = pageUrl(stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
    const browser = await launchBrowser();
    const close = async () => {
      await browser.close();
      await stack.close();
    };
    return { stack, seeded, url, browser, close };
  } catch (err) {
    await stack.close();
    throw err;
  }
}

/** A new browser context as a phone (the harness's PHONE: 390x844 at 2x, touch) and a page in it. */
export async function phonePage(browser) {
  const context = await browser.newContext(PHONE);
  return { context, page: await context.newPage() };
}
