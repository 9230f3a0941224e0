import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, rootRequire } from './paths.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Flags this machine needs (its network is closed; no GPU). */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where the H5 build asks for login codes unless TARO_APP_WX_SIM_URL was set at build time. */
export const DEFAULT_SIM_URL = 'http://127.0.0.1:3100';

/**
 * Headless Debian Chromium through playwright-core. Playwright gives every launch a fresh
 * temporary profile (it rejects --user-data-dir for launch()), deleted on close.
 */
export async function launchBrowser() {
  const { chromium } = rootRequire('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', ...FLAGS] });
}

/**
 * One fan in their own browser context (own localStorage = own openid and token), on a phone
 * sized viewport. opts.token signs the fan in directly; without it the app logs in through the
 * simulator, whose /sim/login this forwards to stack.sim (the simulator sends no CORS headers).
 */
export async function newFanPage(browser, stack, opts = {}) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  if (opts.token) {
    await context.addInitScript((t) => {
      if (!location.protocol.startsWith('http')) return; // about:blank has no storage
      if (!localStorage.getItem('showtix.token'))
        localStorage.setItem('showtix.token', JSON.stringify({ data: t }));
    }, opts.token);
  }
  if (stack.sim) await routeSimulator(context, stack.sim.url, opts.simUrl ?? DEFAULT_SIM_URL);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

async function routeSimulator(context, simUrl, appSimUrl) {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'GET,POST,OPTIONS',
  };
  await context.route(`${appSimUrl}/sim/**`, async (route) => {
    const req = route.request();
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const url = simUrl + new URL(req.url()).pathname;
    const res = await fetch(url, {
      method: req.method(),
      headers: { 'content-type': 'application/json' },
      body: req.postData() ?? undefined,
    });
    return route.fulfill({
      status: res.status,
      headers: { ...cors, 'content-type': 'application/json' },
      body: await res.text(),
    });
  });
}

/** Waits for fonts, for no CSS transition (Taro's H5 router slides pages in) and no toast. */
export async function settle(page) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.constructor.name !== 'CSSTransition' || a.playState !== 'running'),
  );
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.taro__toast')].every((el) => {
      const cs = getComputedStyle(el);
      return cs.display === 'none' || Number(cs.opacity) === 0 || el.getClientRects().length === 0;
    }),
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export async function screenshot(page, name) {
  await settle(page);
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
