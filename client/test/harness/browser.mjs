import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, rootRequire } from './paths.mjs';

/** Executable and flags this machine needs, shared with the admin e2e tests (closed network, no GPU). */
const SETUP = rootRequire('./scripts/lib/chromium.json');
export const CHROMIUM = process.env.CHROMIUM_PATH || SETUP.executable;
/** A phone-sized browser context as the fans' tests and the seat-map benchmark use it. */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
};
/**
 * Headless Debian Chromium through playwright-core. Playwright gives every launch a fresh
 * temporary profile (it rejects --user-data-dir for launch()), deleted on close.
 */
export async function launchBrowser() {
  const { chromium } = rootRequire('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: SETUP.args });
}

/**
 * One fan in their own browser context (own localStorage = own openid and token), on a phone
 * sized viewport, on the app's origin (stack.appUrl). opts.token signs the fan in directly;
 * without it the app logs in by itself through the simulator: the page asks stack.sim for a
 * wx.login code (the simulator answers CORS), pointed there by the app's `showtix.wxSimUrl`
 * storage key because the test simulator listens on a port of its own.
 */
export async function newFanPage(browser, stack, opts = {}) {
  const context = await browser.newContext(PHONE);
  const origin = new URL(stack.appUrl).origin;
  // Taro's H5 storage keeps {"data": value} per key. Only on the app's origin (not the cashier).
  await context.addInitScript(
    ({ origin, token, simUrl }) => {
      if (location.origin !== origin) return;
      const put = (k, v) => localStorage.getItem(k) || localStorage.setItem(k, JSON.stringify({ data: v }));
      if (simUrl) put('showtix.wxSimUrl', simUrl);
      if (token) put('showtix.token', token);
    },
    { origin, token: opts.token ?? null, simUrl: stack.sim?.url ?? null },
  );
  const page = await context.newPage();
  // CPU_THROTTLE=8 slows the page's CPU eightfold (Chrome's own throttling): a loaded CI machine,
  // reproduced on a quiet one when a timing-dependent failure has to be chased.
  if (process.env.CPU_THROTTLE) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.CPU_THROTTLE) });
  }
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/**
 * Waits for fonts, for no CSS transition (Taro's H5 router slides pages in) and no toast
 * (opts.toast: true keeps a toast that is showing, to have it in a screenshot).
 */
export async function settle(page, opts = {}) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // Taro's router: a page slides in after a delay and is marked stationed once there; a page
  // going away loses taro_page_show until it is removed. At rest every page is either hidden
  // (shade) or shown and stationed.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.taro_router > .taro_page')].every(
      (el) =>
        el.classList.contains('taro_page_shade') ||
        (el.classList.contains('taro_page_show') && el.classList.contains('taro_page_stationed')),
    ),
  );
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.constructor.name !== 'CSSTransition' || a.playState !== 'running'),
  );
  if (!opts.toast)
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.taro__toast')].every((el) => {
        const cs = getComputedStyle(el);
        return cs.display === 'none' || Number(cs.opacity) === 0 || el.getClientRects().length === 0;
      }),
    );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export async function screenshot(page, name, opts = {}) {
  await settle(page, opts);
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** The H5 app's URL of a page (hash routing). */
export function pageUrl(appUrl, route, params = {}) {
  const q = new URLSearchParams(params).toString();
  return `${appUrl}/#/pages/${route}/index${q ? `?${q}` : ''}`;
}

/**
 * Opens an app page with a fresh document. A plain goto that changes only the hash would be
 * routed inside the running app, which may reuse a page instance still in Taro's stack.
 */
export async function openPage(page, appUrl, route, params = {}) {
  if (page.url() !== 'about:blank') await page.goto('about:blank');
  await page.goto(pageUrl(appUrl, route, params));
}

/** Waits for the seat map's first full draw (see client/src/seatmap/markers.ts). */
export async function waitForSeatMap(page, timeout = 30_000) {
  await page.waitForFunction(() => typeof window.__seatmapDrawnAt === 'number' && window.__seatmap, null, {
    timeout,
  });
}

/** The seat map drawn and its page at rest (title loaded, no transition), ready for taps. */
export async function seatMapReady(page) {
  await waitForSeatMap(page);
  await page.waitForFunction(() => document.querySelector('.seatmap__title')?.textContent?.trim());
  await settle(page);
}

/** Zooms the seat map in with its + button and waits for the redraw. */
export async function zoomIn(page) {
  const before = await page.evaluate(() => window.__seatmapDraws ?? 0);
  await page.locator('.zoom__btn').first().click();
  await page.waitForFunction((n) => (window.__seatmapDraws ?? 0) > n, before);
}

/**
 * Taps seats (entries of window.__seatmap.freeSeats) where the map draws them at the moment of
 * the tap, and waits until each shows as selected.
 */
export async function tapSeats(page, seats) {
  for (const [i, s] of seats.entries()) {
    // Seats too dense for a finger: the first tap zooms in about it (the seat stays under it).
    if (await page.evaluate(() => window.__seatmap.dense())) {
      const at = await page.evaluate((index) => window.__seatmap.seatPoint(index), s.index);
      const before = await page.evaluate(() => window.__seatmapDraws ?? 0);
      await page.touchscreen.tap(at.x, at.y);
      await page.waitForFunction(
        (n) => (window.__seatmapDraws ?? 0) > n && !window.__seatmap.dense(),
        before,
      );
    }
    const p = await page.evaluate((index) => window.__seatmap.seatPoint(index), s.index);
    await page.touchscreen.tap(p.x, p.y);
    await page
      .getByTestId('seat-chip')
      .nth(i)
      .waitFor({ timeout: 5000 })
      .catch(async (e) => {
        const at = await page.evaluate(
          ([x, y]) => ({
            hit: window.__seatmap.seatAt(x, y),
            tapAt: window.__seatmapTapAt,
            now: window.__seatmap.seatPoint(window.__seatmap.freeSeats(1)[0]?.index ?? 0),
          }),
          [p.x, p.y],
        );
        throw new Error(
          `seat ${s.index} at ${p.x},${p.y} not selected: ${JSON.stringify(at)} (${e.message})`,
        );
      });
  }
}

/** Seat ids as the open map draws them now: resolves once every one shows `state`. */
export async function waitForSeatStates(page, ids, state, timeout = 15_000) {
  await page.waitForFunction(
    ([list, want]) => list.every((id) => window.__seatmap?.seatState(id) === want),
    [ids, state],
    { timeout },
  );
}

/** Free seats (as in window.__seatmap.freeSeats) of the given ids, where this page draws them. */
export async function seatsById(page, ids) {
  return page.evaluate((list) => list.map((id) => ({ id, index: window.__seatmap.indexOf(id) })), ids);
}

/** Types 确认订单's 联系手机 (every order needs one; a fan's first order starts blank). */
export async function fillContactPhone(page, phone = '13800138000') {
  await page.getByTestId('contact-phone').locator('input').fill(phone);
}

/** Answers a Taro.showModal with the button of that text. */
export async function modalButton(page, text) {
  const button = page.locator('.taro-modal__foot').getByText(text, { exact: true });
  await button.waitFor();
  return button;
}

/**
 * n free seats next to each other (consecutive in map order) nearest to the middle of the map
 * as drawn now, for taps that look like a fan's (and screenshots that show them).
 */
export async function seatsNearCentre(page, n) {
  return page.evaluate((count) => {
    const r = document.querySelector('.seat-canvas__canvas').getBoundingClientRect();
    const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
    const free = window.__seatmap.freeSeats(100_000);
    const byIndex = new Map(free.map((s) => [s.index, s]));
    free.sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
    for (const s of free) {
      const run = Array.from({ length: count }, (_, k) => byIndex.get(s.index + k));
      if (run.every(Boolean)) return run;
    }
    throw new Error(`no ${count} free seats side by side on screen`);
  }, n);
}

/** Zooms in and taps `n` free seats side by side nearest the middle of the map; returns them. */
export async function pickSeatsNearCentre(page, n) {
  await zoomIn(page);
  const seats = await seatsNearCentre(page, n);
  await tapSeats(page, seats);
  return seats;
}

/** Text as the page shows it without white space (a price tag draws ¥ and the number apart). */
export const flat = (s) => s.replace(/\s/g, '');

/** A whole-yuan amount as the app prints it ("¥1,880"), written apart from the app's own code. */
export const yuan = (fen) => `¥${String((fen - (fen % 100)) / 100).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/** A seat of the API's seat map as the app labels it ("A区 3排12座"). */
export const seatLabel = (s) => `${s.section} ${s.row}排${s.number}座`;

let axeSource;
/**
 * axe-core's serious and critical findings on the page as it is now: [{id, impact, help, nodes}]
 * (nodes: the offending elements' selectors). Injected through the DevTools protocol, which the
 * page's Content-Security-Policy does not apply to. The seat canvas is left out: its list
 * alternative and the legend carry its meaning.
 */
export async function axeViolations(page, { exclude = ['canvas'] } = {}) {
  axeSource ??= readFileSync(rootRequire.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const found = await page.evaluate(
    (ex) => window.axe.run({ exclude: ex }, { resultTypes: ['violations'] }),
    exclude.map((e) => [e]),
  );
  return found.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
}

/**
 * Waits for a test id to be visible; on a timeout the error says where the page was and what it
 * showed (a failure in CI leaves only this text behind).
 */
export async function waitForTestId(page, testId, timeout = 30_000) {
  try {
    await page.getByTestId(testId).waitFor({ timeout });
  } catch (e) {
    const text = await page.evaluate(() => document.body.innerText.slice(0, 600)).catch(() => '?');
    throw new Error(`${testId} not shown at ${page.url()}; the page showed: ${text}`, { cause: e });
  }
}
