/**
 * Helpers shared by the automator scenarios (journey.mjs, refund.mjs, staff.mjs): finding and
 * tapping elements by class and text, waiting for pages, the fan's token and the wx mocks that
 * stand in for what only a phone does (pay sheet, camera, modal taps). Every selector a scenario
 * uses is declared in its SELECTORS list, which `run.mjs --check` looks up in dist/weapp.
 */
/* global wx -- the mock functions below run inside the mini-program, where wx is global */
import { ROOT, rootRequire } from '../harness/paths.mjs';

/**
 * A scenario's SELECTORS from a table by page: each entry a class, or [class, text] where the
 * element is found by its text too.
 */
export function selectorsByPage(byPage) {
  return Object.entries(byPage).flatMap(([page, entries]) =>
    entries.map((e) => (Array.isArray(e) ? { page, sel: e[0], text: e[1] } : { page, sel: e })),
  );
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it answers truthy; fails naming what it waited for. */
export async function until(fn, what, ms = 30_000) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e; // an element gone between $$ and text(): poll again
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (${last.message})` : ''}`);
    await sleep(200);
  }
}

/** The elements of `selector` on the page whose text contains `text` (all of them without text). */
export async function findAll(page, selector, text) {
  const out = [];
  for (const el of await page.$$(selector)) {
    if (text === undefined || (await el.text()).replace(/\s/g, '').includes(text.replace(/\s/g, '')))
      out.push(el);
  }
  return out;
}

/** Waits for the first `selector` element containing `text`, and returns it. */
export async function waitText(page, selector, text, ms) {
  return until(async () => (await findAll(page, selector, text))[0], `${selector} "${text ?? ''}"`, ms);
}

export async function tapText(page, selector, text, ms) {
  const el = await waitText(page, selector, text, ms);
  await el.tap();
  return el;
}

/** The page on top once its path is `path` (a tap that navigates resolves before the page shows). */
export async function waitPage(miniProgram, path, ms) {
  const want = path.replace(/^\//, '');
  return until(
    async () => {
      const page = await miniProgram.currentPage();
      return page?.path === want ? page : undefined;
    },
    `page ${want}`,
    ms,
  );
}

/** Logs the app in as this user: the token the app keeps (services/storage.ts KEYS.token). */
export async function useToken(miniProgram, token) {
  await miniProgram.callWxMethod('setStorageSync', 'showtix.token', token);
}

/**
 * wx.requestPayment, as the phone's pay sheet would answer after the fan confirms: the exact
 * parameters the app passed go to the WeChat simulator's POST /sim/pay (checked there as WeChat
 * checks them; it pays the prepay and notifies the server). The answer is kept under
 * `automator.lastPay` for the failure message.
 */
export async function mockPayThroughSimulator(miniProgram, simUrl) {
  await miniProgram.mockWxMethod(
    'requestPayment',
    function (obj, url) {
      return new Promise((resolve, reject) => {
        wx.request({
          url: `${url}/sim/pay`,
          method: 'POST',
          header: { 'content-type': 'application/json' },
          data: {
            timeStamp: obj.timeStamp,
            nonceStr: obj.nonceStr,
            package: obj.package,
            signType: obj.signType,
            paySign: obj.paySign,
          },
          success(res) {
            wx.setStorageSync(
              'automator.lastPay',
              JSON.stringify({ status: res.statusCode, body: res.data }),
            );
            if (res.statusCode === 200) resolve({ errMsg: 'requestPayment:ok' });
            else reject({ errMsg: `requestPayment:fail ${JSON.stringify(res.data)}` });
          },
          fail(err) {
            wx.setStorageSync('automator.lastPay', JSON.stringify({ fail: err.errMsg }));
            reject({ errMsg: `requestPayment:fail ${err.errMsg}` });
          },
        });
      });
    },
    simUrl,
  );
}

/** What the simulator answered the last mocked payment (for a failure message). */
export async function lastPay(miniProgram) {
  return miniProgram.callWxMethod('getStorageSync', 'automator.lastPay');
}

/**
 * The taps only a person makes: every subscribe-message prompt declined (the server sends nothing
 * without consent), every modal confirmed (申请退款's 确认退款).
 */
export async function mockPrompts(miniProgram) {
  await miniProgram.mockWxMethod('requestSubscribeMessage', function (obj) {
    const res = { errMsg: 'requestSubscribeMessage:ok' };
    for (const id of obj.tmplIds || []) res[id] = 'reject';
    return res;
  });
  await miniProgram.mockWxMethod('showModal', { confirm: true, cancel: false, errMsg: 'showModal:ok' });
}

/**
 * wx.scanCode as the staff phone's camera: each call answers the next code queued under
 * `automator.scans` (queueScans); with none left it fails as a closed camera does, which leaves
 * the desk as it is (the page reopens the camera by itself after an admission).
 */
export async function mockCamera(miniProgram) {
  await miniProgram.callWxMethod('setStorageSync', 'automator.scans', '[]');
  await miniProgram.mockWxMethod('scanCode', function () {
    const queue = JSON.parse(wx.getStorageSync('automator.scans') || '[]');
    const code = queue.shift();
    wx.setStorageSync('automator.scans', JSON.stringify(queue));
    if (!code) return Promise.reject({ errMsg: 'scanCode:fail cancel' });
    return { result: code, scanType: 'QR_CODE', charSet: 'UTF-8', errMsg: 'scanCode:ok' };
  });
}

export async function queueScans(miniProgram, codes) {
  await miniProgram.callWxMethod('setStorageSync', 'automator.scans', JSON.stringify(codes));
}

const ticketCode = () => rootRequire(`${ROOT}/shared-types/dist/ticket-code.js`);

/** This phone's ticket key seed (services/device-key.ts keeps it under showtix.ticketKey). */
export async function deviceSeed(miniProgram) {
  const s = await miniProgram.callWxMethod('getStorageSync', 'showtix.ticketKey');
  if (!s) throw new Error('the app has no ticket key yet (票夹 makes one when it binds)');
  return new Uint8Array(Buffer.from(s, 'base64url'));
}

/**
 * The ticket's QR as the fan's phone shows it now: the same makeCode over the server's binding
 * with the phone's own key (components/RotatingQr.tsx), as gate.test.mjs reads it off the page.
 */
export function liveCode(ticket, seed, nowMs = Date.now()) {
  return ticketCode().makeCode(ticket.binding.binding, seed, nowMs);
}

/** The six spoken digits under the QR for the step of nowMs (RotatingQr's manualDigits). */
export function spokenDigits(ticket, seed, nowMs = Date.now()) {
  const { manualDigits, manualKeyOf, CODE_STEP_MS } = ticketCode();
  const step = ticket.codeStepMs || CODE_STEP_MS;
  return manualDigits(manualKeyOf(seed, ticket.ticketId), Math.floor(nowMs / step) * step);
}

/** A fan's API call (JSON in and out); throws on error statuses. */
export async function api(apiUrl, token, method, path, body, headers = {}) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/**
 * An order of `count` free seats of the session bought and paid through the API and the
 * simulator (as purchase.test.mjs buys its wallet's tickets), waited for until ticketed.
 */
export async function buyThroughApi(stack, token, sessionId, count = 1) {
  const map = await api(stack.apiUrl, null, 'GET', `/api/v1/sessions/${sessionId}/seatmap`);
  const seatIds = map.seats
    .filter((s) => s.state === 'available')
    .slice(-count)
    .map((s) => s.id);
  const order = await api(
    stack.apiUrl,
    token,
    'POST',
    '/api/v1/orders',
    { sessionId, seatIds, contactPhone: '13800138000' },
    { 'idempotency-key': `automator-${sessionId}-${Date.now()}` },
  );
  const { payParams } = await api(stack.apiUrl, token, 'POST', `/api/v1/orders/${order.orderNo}/pay`);
  stack.sim.pay(payParams);
  await until(
    async () =>
      (await api(stack.apiUrl, token, 'GET', `/api/v1/orders/${order.orderNo}`)).status === 'ticketed',
    `order ${order.orderNo} ticketed`,
  );
  return order.orderNo;
}
