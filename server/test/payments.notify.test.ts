import type { RowDataPacket } from 'mysql2/promise';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';
import { flipBase64, wechatHeaders } from './helpers/wx-sign';

/**
 * Every way a payment notification can be wrong (reliability checklist, "payment"): each is
 * answered 4xx {"code":"FAIL"} and changes nothing; the right ones are accepted in both modes.
 */
let p: PayEnv;
let s: SessionFixture;
let notifyUrl: string;
let good: { body: string; headers: Record<string, string>; orderNo: string };

beforeAll(async () => {
  p = await createPayEnv();
  s = await createSession(p.deps, { seats: 30 });
  notifyUrl = `${p.api.url}/api/v1/pay/wechat/notify`;
  good = await paidButUnnotified(0);
});
afterAll(() => p.close());

/** The fan `openid` orders that seat and pays at WeChat, whose notification is dropped. */
async function payWithNoticeDropped(openid: string, seat: number) {
  const o = await p.orderAndPrepay(openid, { sessionId: s.sessionId, seatIds: [s.seatIds[seat]] });
  p.sim.setFaults({ drop: true });
  p.sim.pay(o.payParams);
  p.sim.resetFaults();
  return o;
}

/** An order paid at WeChat whose notification was dropped; returns a valid notification for it. */
async function paidButUnnotified(seat: number) {
  const o = await payWithNoticeDropped(`openid-notify-${seat}`, seat);
  // The simulator builds a genuine notification; it is sent to a dead end so we can reuse it.
  const r = await p.sim.sendRawNotification({ outTradeNo: o.orderNo, url: `${p.api.url}/nowhere` });
  return { body: r.sentBody, headers: lower(r.headers), orderNo: o.orderNo };
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

async function post(body: string, headers: Record<string, string>) {
  const res = await fetch(notifyUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function unchanged(orderNo: string) {
  const [rows] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT o.status, (SELECT COUNT(*) FROM payments WHERE order_id = o.id) AS payments FROM orders o WHERE order_no = ?',
    [orderNo],
  );
  expect({ status: rows[0]!.status, payments: Number(rows[0]!.payments) }).toEqual({
    status: 1,
    payments: 0,
  });
}

/** The server's clock (a test clock, fixed at start-up): the window is measured against it. */
const serverNowS = () => Math.floor(p.clock.now().getTime() / 1000);

function withResource(body: string, change: (r: Record<string, string>) => void): string {
  const b = JSON.parse(body);
  change(b.resource);
  return JSON.stringify(b);
}

const refusedCases: [string, () => { body: string; headers: Record<string, string> }][] = [
  [
    'a missing signature header',
    () => ({
      body: good.body,
      headers: { ...good.headers, 'wechatpay-signature': undefined as unknown as string },
    }),
  ],
  ['an empty serial', () => ({ body: good.body, headers: { ...good.headers, 'wechatpay-serial': '' } })],
  [
    'a non-numeric timestamp',
    () => ({
      body: good.body,
      headers: wechatHeaders(good.body, { timestamp: 'soon' as unknown as number }),
    }),
  ],
  [
    'a timestamp exactly 5 minutes old',
    () => ({
      body: good.body,
      headers: wechatHeaders(good.body, { timestamp: serverNowS() - 300 }),
    }),
  ],
  [
    'a timestamp 5 minutes ahead',
    () => ({
      body: good.body,
      headers: wechatHeaders(good.body, { timestamp: serverNowS() + 301 }),
    }),
  ],
  [
    'a re-serialised body',
    () => ({ body: JSON.stringify(JSON.parse(good.body), null, 1), headers: good.headers }),
  ],
  [
    'a WECHATPAY/SIGNTEST/ probe signature',
    () => ({
      body: good.body,
      headers: {
        ...good.headers,
        'wechatpay-signature': 'WECHATPAY/SIGNTEST/' + good.headers['wechatpay-signature'],
      },
    }),
  ],
  [
    'one flipped bit in the signature',
    () => ({
      body: good.body,
      headers: {
        ...good.headers,
        'wechatpay-signature': flipBase64(good.headers['wechatpay-signature']!, 10),
      },
    }),
  ],
  [
    'an unknown serial',
    () => ({ body: good.body, headers: wechatHeaders(good.body, { serial: 'DEADBEEF' }) }),
  ],
  [
    'a flipped ciphertext byte (re-signed)',
    () => {
      const b = withResource(good.body, (r) => (r.ciphertext = flipBase64(r.ciphertext!, 3)));
      return { body: b, headers: wechatHeaders(b) };
    },
  ],
  [
    'a flipped GCM tag byte (re-signed)',
    () => {
      const b = withResource(good.body, (r) => (r.ciphertext = flipBase64(r.ciphertext!, -2)));
      return { body: b, headers: wechatHeaders(b) };
    },
  ],
  [
    'wrong associated data (re-signed)',
    () => {
      const b = withResource(good.body, (r) => (r.associated_data = 'certificate'));
      return { body: b, headers: wechatHeaders(b) };
    },
  ],
  [
    'a wrong nonce (re-signed)',
    () => {
      const b = withResource(good.body, (r) => (r.nonce = 'AAAAAAAAAAAA'));
      return { body: b, headers: wechatHeaders(b) };
    },
  ],
];

describe('refused before anything is parsed or written', () => {
  it.each(refusedCases)('%s -> 4xx FAIL', async (_name, make) => {
    const { body, headers } = make();
    const r = await post(
      body,
      Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)),
    );
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body).toEqual({ code: 'FAIL', message: expect.any(String) });
    await unchanged(good.orderNo);
  });

  it('a resource encrypted under another APIv3 key', async () => {
    const r = await p.sim.sendRawNotification({
      outTradeNo: good.orderNo,
      url: notifyUrl,
      apiV3Key: 'x'.repeat(32),
    });
    expect(r.status).toBe(400);
    await unchanged(good.orderNo);
  });
});

describe('validly signed but not our payment: refused, order unchanged', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['a wrong amount', { amount: { total: 1, payer_total: 1, currency: 'CNY', payer_currency: 'CNY' } }],
    ['a wrong appid', { appid: 'wx0000000000000000' }],
    ['a wrong mchid', { mchid: '1234567890' }],
    ['an unknown order', { out_trade_no: '999999999999999' }],
    ['trade_state NOTPAY', { trade_state: 'NOTPAY' }],
  ];
  it.each(cases)('%s', async (_name, resource) => {
    const r = await p.sim.sendRawNotification({ outTradeNo: good.orderNo, url: notifyUrl, resource });
    expect(r.status).toBe(400);
    await unchanged(good.orderNo);
  });
});

describe('paid in a currency other than CNY', () => {
  it('never pays the order; the money is recorded and refunded in full, once', async () => {
    const o = await payWithNoticeDropped('openid-notify-usd', 20);
    const total = o.order.amountFen as number;
    const amount = { total, payer_total: total, currency: 'USD', payer_currency: 'USD' };
    const r = await p.sim.sendRawNotification({
      outTradeNo: o.orderNo,
      url: notifyUrl,
      resource: { amount },
    });
    expect(r.status).toBe(204); // recorded: WeChat need not retry
    const [rows] = await p.deps.db.query<RowDataPacket[]>(
      `SELECT o.status, p.currency, p.outcome, p.amount_fen FROM orders o JOIN payments p ON p.order_id = o.id
        WHERE o.order_no = ?`,
      [o.orderNo],
    );
    expect(rows.map((x) => ({ ...x }))).toEqual([
      { status: 1, currency: 'USD', outcome: 'wrong_currency', amount_fen: total },
    ]);
    // Refunded through the refunds path (consumer, WeChat, refund notification), in full.
    const refunded = async () =>
      (
        await p.deps.db.query<RowDataPacket[]>(
          `SELECT r.kind, r.amount_fen, r.status, p.refunded_fen FROM refunds r JOIN payments p ON p.id = r.payment_id
            JOIN orders o ON o.id = r.order_id WHERE o.order_no = ?`,
          [o.orderNo],
        )
      )[0].map((x) => ({ ...x }));
    await p.until(async () => (await refunded())[0]?.status === 2, 'refund succeeded');
    expect(await refunded()).toEqual([
      { kind: 'currency', amount_fen: total, status: 2, refunded_fen: total },
    ]);
    // The same notification again changes nothing: no second payment, no second refund.
    const again = await p.sim.sendRawNotification({
      outTradeNo: o.orderNo,
      url: notifyUrl,
      replayLast: true,
    });
    expect(again.status).toBe(204);
    expect(await refunded()).toHaveLength(1);
    expect(p.sim.refunds().filter((x) => x.out_trade_no === o.orderNo)).toHaveLength(1);
    const [[order]] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [
      o.orderNo,
    ]);
    expect(order!.status).toBe(1); // still unpaid: it expires or is paid in CNY
  });

  it('a refund of money we must give back that WeChat closes goes to an operator, not silence', async () => {
    const o = await payWithNoticeDropped('openid-notify-usd-closed', 21);
    p.sim.setFaults({ refundOutcome: 'CLOSED' });
    const total = o.order.amountFen as number;
    const amount = { total, payer_total: total, currency: 'USD', payer_currency: 'USD' };
    await p.sim.sendRawNotification({ outTradeNo: o.orderNo, url: notifyUrl, resource: { amount } });
    const cases = async () =>
      (
        await p.deps.db.query<RowDataPacket[]>(
          `SELECT r.kind, r.status, c.reason, c.state FROM refunds r JOIN orders o ON o.id = r.order_id
             LEFT JOIN refund_cases c ON c.refund_id = r.id WHERE o.order_no = ?`,
          [o.orderNo],
        )
      )[0].map((x) => ({ ...x }));
    await p.until(async () => (await cases())[0]?.status === 4, 'refund closed');
    p.sim.resetFaults();
    // Before: closed, and nothing else; the fan's money stayed with us unseen.
    expect(await cases()).toEqual([{ kind: 'currency', status: 4, reason: 'closed', state: 'open' }]);
  });
});

describe('accepted', () => {
  it('in certificate mode, with a timestamp just inside the window', async () => {
    const headers = wechatHeaders(good.body, { timestamp: serverNowS() - 295 });
    expect((await post(good.body, headers)).status).toBe(204);
    const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [
      good.orderNo,
    ]);
    expect([2, 3]).toContain(rows[0]!.status);
  });

  it('in WeChat Pay public-key mode', async () => {
    const other = await paidButUnnotified(1);
    expect((await post(other.body, wechatHeaders(other.body, { publicKeyMode: true }))).status).toBe(204);
  });

  it('the same notification replayed 6 minutes later is refused (stale), and changes nothing twice', async () => {
    const third = await paidButUnnotified(2);
    expect((await post(third.body, third.headers)).status).toBe(204);
    p.clock.advance(6 * 60_000);
    try {
      expect((await post(third.body, third.headers)).status).toBe(401);
    } finally {
      p.clock.advance(-6 * 60_000);
    }
    const [rows] = await p.deps.db.query<RowDataPacket[]>(
      'SELECT COUNT(*) n FROM payments WHERE order_id = (SELECT id FROM orders WHERE order_no = ?)',
      [third.orderNo],
    );
    expect(Number(rows[0]!.n)).toBe(1);
  });
});
