import type { RowDataPacket } from 'mysql2/promise';
import { expireDueOrders } from '../src/orders/expiry';
import { audit } from './helpers/auditor';
import { createSession } from './helpers/fixtures';
import { createPayEnv, prepaidOrders, type PayEnv } from './helpers/pay-env';

/**
 * Expiry and payment at the same instant, many times over: the expiry closes the WeChat order
 * before it frees anything, so every order ends either paid (with tickets) or cancelled with
 * no charge standing at WeChat. Never a freed seat whose charge stands.
 */
let p: PayEnv;
beforeAll(async () => (p = await createPayEnv()));
afterAll(() => p.close());

it('30 races between the buyer paying and the expiry job', async () => {
  const s = await createSession(p.deps, { seats: 30 });
  const orders = await prepaidOrders(p, s, 30, 'race');
  // Our hold ends now; WeChat would still take the money for a while (its time_expire is ours,
  // but the clocks meet at this instant), so both may happen at once.
  await p.deps.db.query('UPDATE orders SET expire_at = ? WHERE session_id = ?', [
    new Date(p.clock.now().getTime() - 1),
    s.sessionId,
  ]);
  const expiry = {
    db: p.deps.db,
    orders: p.deps.orders,
    inventory: p.deps.inventory,
    log: p.deps.log,
    orphanGraceMs: 60_000,
  };
  const payments = orders.map(async (o, i) => {
    await new Promise((r) => setTimeout(r, (i * 97) % 600)); // spread over the expiry pass
    try {
      p.sim.pay(o.payParams);
    } catch {
      /* closed first: WeChat refuses the payment */
    }
  });
  await Promise.all([
    ...payments,
    expireDueOrders(expiry, p.clock.now()),
    expireDueOrders(expiry, p.clock.now()),
  ]);
  await expireDueOrders(expiry, p.clock.now());

  const charged = (no: string) =>
    p.sim.orders().find((o) => o.out_trade_no === no)?.trade_state === 'SUCCESS';
  await p.until(async () => {
    const [rows] = await p.deps.db.query<RowDataPacket[]>(
      'SELECT order_no, status FROM orders WHERE session_id = ?',
      [s.sessionId],
    );
    return rows.every((r) => (charged(r.order_no) ? r.status === 3 : r.status === 4));
  }, 'every charged order ticketed and every other one cancelled');
  const [rows] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT order_no, status FROM orders WHERE session_id = ?',
    [s.sessionId],
  );
  if (process.env.RACE_DEBUG)
    console.log('charged', rows.filter((r) => r.status === 3).length, 'of', rows.length);
  for (const r of rows)
    expect({ orderNo: r.order_no, charged: charged(r.order_no), status: r.status }).toEqual({
      orderNo: r.order_no,
      charged: r.status === 3,
      status: r.status,
    });
  expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
});
