import type { RowDataPacket } from 'mysql2/promise';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { consentTo } from './helpers/consent';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

let p: PayEnv;
let s: SessionFixture;

beforeAll(async () => {
  p = await createPayEnv();
  s = await createSession(p.deps, { seats: 20, zones: [{ name: 'GA', capacity: 10 }] });
});
afterAll(() => p.close());

const q = async (sql: string, params: unknown[]) => (await p.deps.db.query<RowDataPacket[]>(sql, params))[0];

async function buy(token: string, body: object) {
  const order = await p.api.call('POST', '/api/v1/orders', {
    token,
    body: { sessionId: s.sessionId, ...body },
  });
  expect(order.status).toBe(201);
  return order.body;
}

describe('login', () => {
  it('turns a wx.login code into a session token for the openid user', async () => {
    const a = await p.login('openid-alice');
    const again = await p.login('openid-alice');
    expect(again.userId).toBe(a.userId);
    const me = await p.api.call('GET', '/api/v1/orders', { token: a.token });
    expect(me.status).toBe(200);
  });

  it('refuses unknown and reused codes with 401', async () => {
    expect((await p.api.call('POST', '/api/v1/auth/wx-login', { body: { code: 'nope' } })).status).toBe(401);
    const { code } = p.sim.login('openid-bob');
    expect((await p.api.call('POST', '/api/v1/auth/wx-login', { body: { code } })).status).toBe(200);
    const reused = await p.api.call('POST', '/api/v1/auth/wx-login', { body: { code } });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('login -> order -> pay -> notify -> tickets', () => {
  it('issues one ticket per seat after WeChat says the payment succeeded', async () => {
    const fan = await p.login('openid-flow');
    await consentTo(p, fan, 'openid-flow', ['paid', 'ticketed']);
    const order = await buy(fan.token, { seatIds: s.seatIds.slice(0, 2) });
    const pay = await p.api.call('POST', `/api/v1/orders/${order.orderNo}/pay`, { token: fan.token });
    expect(pay.status).toBe(200);
    expect(pay.body.payParams).toEqual({
      timeStamp: expect.stringMatching(/^\d+$/),
      nonceStr: expect.any(String),
      package: `prepay_id=${pay.body.prepayId}`,
      signType: 'RSA',
      paySign: expect.any(String),
    });
    expect(pay.body.cashierUrl).toContain('/sim/cashier?prepay_id=');
    // WeChat's order may not outlive our hold.
    const wx = p.sim.orders().find((o) => o.out_trade_no === order.orderNo)!;
    expect(Date.parse(String(wx.time_expire))).toBeLessThanOrEqual(Date.parse(order.expireAt));
    expect(wx.amount).toMatchObject({ total: order.amountFen });

    p.sim.pay(pay.body.payParams);
    const done = await p.until(async () => {
      const o = await p.api.call('GET', `/api/v1/orders/${order.orderNo}`, { token: fan.token });
      return o.body.status === 'ticketed' && o.body;
    }, 'tickets');
    expect(done.status).toBe('ticketed');
    const tickets = await p.api.call('GET', '/api/v1/tickets', { token: fan.token });
    expect(tickets.body.items).toHaveLength(2);
    expect(tickets.body.items[0]).toMatchObject({
      orderNo: order.orderNo,
      status: 'valid',
      seatId: s.seatIds[0],
      // The code is made on the phone the ticket is bound to (device-bound tickets): until a phone
      // binds it, the API has no QR to give, and it never gives anything that can make one.
      qr: '',
    });
    const seats = await p.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`);
    expect(seats.body.sold).toEqual(expect.arrayContaining(s.seatIds.slice(0, 2)));
    await p.until(
      async () => p.sim.messages().some((m) => JSON.stringify(m).includes(order.orderNo)),
      'the 购票成功 notice',
    );
    expect(
      p.sim
        .notifications()
        .find((n) => JSON.stringify(n).includes(order.orderNo))
        ?.attempts.at(-1)?.status,
    ).toBe(204);
  });

  it('works for general admission: one ticket per unit', async () => {
    const fan = await p.login('openid-ga');
    const order = await buy(fan.token, { zoneId: s.zoneIds[0], quantity: 3 });
    const pay = await p.api.call('POST', `/api/v1/orders/${order.orderNo}/pay`, { token: fan.token });
    p.sim.pay(pay.body.payParams);
    await p.until(
      async () =>
        (
          await q(
            'SELECT COUNT(*) n FROM tickets WHERE order_id = (SELECT id FROM orders WHERE order_no = ?)',
            [order.orderNo],
          )
        )[0]!.n == 3,
      'three tickets',
    );
  });
});

describe('who may pay what', () => {
  it("refuses another user's order (404), a cancelled order and an expired one", async () => {
    const a = await p.login('openid-owner');
    const b = await p.login('openid-other');
    const order = await buy(a.token, { seatIds: [s.seatIds[10]] });
    expect((await p.api.call('POST', `/api/v1/orders/${order.orderNo}/pay`, { token: b.token })).status).toBe(
      404,
    );
    await p.api.call('POST', `/api/v1/orders/${order.orderNo}/cancel`, { token: a.token });
    const cancelled = await p.api.call('POST', `/api/v1/orders/${order.orderNo}/pay`, { token: a.token });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error.code).toBe('ORDER_STATE_INVALID');

    const late = await buy(a.token, { seatIds: [s.seatIds[11]] });
    p.clock.advance(15 * 60_000);
    const expired = await p.api.call('POST', `/api/v1/orders/${late.orderNo}/pay`, { token: a.token });
    p.clock.advance(-15 * 60_000);
    expect(expired.body.error.code).toBe('ORDER_EXPIRED');
  });

  it('cancelling an order whose payment went through is refused, and the payment is honoured', async () => {
    const fan = await p.login('openid-cancel-paid');
    const order = await buy(fan.token, { seatIds: [s.seatIds[12]] });
    const pay = await p.api.call('POST', `/api/v1/orders/${order.orderNo}/pay`, { token: fan.token });
    p.sim.setFaults({ drop: true }); // the notification never comes
    p.sim.pay(pay.body.payParams);
    const cancel = await p.api.call('POST', `/api/v1/orders/${order.orderNo}/cancel`, { token: fan.token });
    p.sim.resetFaults();
    expect(cancel.body.error.code).toBe('ORDER_STATE_INVALID');
    await p.until(
      async () =>
        (await p.api.call('GET', `/api/v1/orders/${order.orderNo}`, { token: fan.token })).body.status ===
        'ticketed',
      'tickets',
    );
  });
});
