/**
 * The compiled ticket wallet (dist/weapp) in miniprogram-simulate, with a wx that has no
 * TextEncoder or atob (as WeChat): the ticket is bound to a key the phone generates itself, the
 * code (and the spoken digits under it) changes every 20-second step, and after a restart with
 * no network the wallet still shows the same phone's codes, still rotating.
 */
const { calls, routes, storage, setNetwork, openPage, until, reset, byClass, text } = require('./mp');
const support = require('../support/tickets');
const tc = require('@showtix/shared-types/dist/ticket-code');

const T1 = 'TABCDEFGHJKLMNPQRSTU';
const keys = support.keyPair();
const STEP = 20_000;
const realNow = Date.now;
let skew = 0;

beforeEach(() => {
  reset();
  storage.set('showtix.token', 'tok');
  // The clock starts 1 s into a step, so the seconds the test itself takes never cross a step
  // boundary: only `skew` moves the code on. (A real clock once turned a step between the page's
  // tick and the test's check, and the two codes differed.)
  const start = realNow();
  skew = Math.ceil(start / STEP) * STEP + 1000 - start;
  Date.now = () => realNow() + skew;
});
afterEach(() => {
  Date.now = realNow;
});

const ticket = {
  ticketId: T1,
  orderNo: 'N1',
  sessionId: '7',
  status: 'valid',
  qr: '',
  codeStepMs: STEP,
  showTitle: '星河巡回演唱会',
  venueName: '梅奔',
  startsAt: '2027-01-15T11:30:00.000Z',
  seat: { section: 'A区', row: '1', number: '1' },
};

/** The digits this phone should show now, from the key it stored (the private key stays here). */
function expectedDigits(at) {
  const seed = tc.b64urlToBytes(storage.get('showtix.ticketKey'));
  const d = tc.manualDigits(tc.manualKeyOf(seed, T1), at);
  return `人工核验码 ${d.slice(0, 3)} ${d.slice(3)}`;
}

test('binds the ticket to a key made on the phone; the code rotates every step, and offline after a restart', async () => {
  let bound;
  routes.set('GET /api/v1/tickets', { items: [ticket] });
  routes.set(`POST /api/v1/tickets/${T1}/bind`, (req) => {
    bound = req.data;
    const b = support.ticket(keys, T1, '7', { pub: req.data.publicKey }).binding;
    return { statusCode: 200, data: { ...b, rebound: false } };
  });
  let page = openPage('pages/tickets/index');
  await until(() => byClass(page, 'live-qr__digits').length, 'the live code');
  expect(storage.get('showtix.ticketKey')).toMatch(/^[\w-]{43}$/);
  expect(bound.publicKey).toMatch(/^[\w-]{43}$/);
  expect(JSON.stringify(calls.request)).not.toContain(storage.get('showtix.ticketKey'));
  const first = text(page, 'live-qr__digits');
  expect(first).toBe(expectedDigits(Date.now()));

  skew += STEP; // the next step: a new code within a second
  await until(() => text(page, 'live-qr__digits') !== first, 'the next code');
  expect(text(page, 'live-qr__digits')).toBe(expectedDigits(Date.now()));
  page.detach();

  // The app restarts with no network: the kept wallet and the kept key make the codes.
  routes.set('GET /api/v1/tickets', () => ({ fail: true }));
  setNetwork('none');
  skew += STEP;
  page = openPage('pages/tickets/index');
  await until(() => byClass(page, 'tickets__offline').length, 'the offline wallet');
  await until(() => text(page, 'live-qr__digits') === expectedDigits(Date.now()), 'the code offline');
  const offline = text(page, 'live-qr__digits');
  skew += STEP;
  await until(() => text(page, 'live-qr__digits') !== offline, 'the code rotating offline');
  expect(text(page, 'live-qr__digits')).toBe(expectedDigits(Date.now()));
  page.detach();
});
