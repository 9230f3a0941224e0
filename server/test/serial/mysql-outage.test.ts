import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { createSession, type SessionFixture } from '../helpers/fixtures';
import { createPayEnv, type PayEnv } from '../helpers/pay-env';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

/**
 * MySQL out of reach during a sale: the server talks to MariaDB through a proxy the test cuts.
 * Orders answer 503 and give their holds back; a payment made meanwhile is retried by WeChat
 * and ends in a ticket; an order whose commit reached MySQL while its answer was lost is found
 * again by its Idempotency-Key (Redis relearns it from MySQL) and is never sold to anyone else;
 * if MySQL is back by the time the writer retries, the buyer gets the order at once.
 */
let p: PayEnv;
let proxy: TcpProxy;
let direct: Connection;
let s: SessionFixture;

beforeAll(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 3306 });
  p = await createPayEnv({ mysqlVia: `127.0.0.1:${proxy.port}` });
  direct = await createConnection(p.config.mysqlUrl);
  s = await createSession(p.deps, { seats: 10 });
});
afterAll(async () => {
  proxy.set('up');
  await direct.end();
  await p.close();
  await proxy.close();
});

const order = (token: string, seat: number, key: string) =>
  p.api.call('POST', '/api/v1/orders', {
    token,
    body: { sessionId: s.sessionId, seatIds: [s.seatIds[seat]] },
    headers: { 'idempotency-key': key },
  });
const held = async () =>
  (await p.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`)).body.held as string[];
const statusOf = async (token: string, orderNo: string) =>
  (await p.api.call('GET', `/api/v1/orders/${orderNo}`, { token })).body.status;
/**
 * The fan's order sent while MySQL's answers are black-holed: `committed` settles once MySQL
 * (read directly, not through the cut) holds the fan's nth order; `reply` is the API's answer.
 */
function orderBehindCut(fan: { token: string; userId: string }, seat: number, key: string, nth: number) {
  proxy.set('blackhole');
  const reply = order(fan.token, seat, key);
  const committed = p.until(async () => {
    const [rows] = await direct.query<RowDataPacket[]>('SELECT id FROM orders WHERE user_id = ?', [
      fan.userId,
    ]);
    return rows.length === nth;
  }, 'the order to be committed behind the cut');
  return { reply, committed };
}

it('answers 503 while MySQL is down, holds nothing, and sells the seat once it is back', async () => {
  const fan = await p.login('openid-outage-1');
  expect((await order(fan.token, 0, 'outage-warm-0001')).status).toBe(201);
  proxy.set('down');
  try {
    const r = await order(fan.token, 1, 'outage-down-0001');
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await held()).not.toContain(s.seatIds[1]);
    // Any read that needs MySQL says "try again shortly", not "internal error".
    const list = await p.api.call('GET', '/api/v1/orders', { token: fan.token });
    expect([list.status, list.body.error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  } finally {
    proxy.set('up');
  }
  // The refused request wrote nothing, so its key starts afresh.
  const again = await order(fan.token, 1, 'outage-down-0001');
  expect(again.status).toBe(201);
  expect(await held()).toContain(s.seatIds[1]);
});

it('issues the ticket of a payment WeChat notified while MySQL was down', async () => {
  const o = await p.orderAndPrepay('openid-outage-2', { sessionId: s.sessionId, seatIds: [s.seatIds[2]] });
  proxy.set('down');
  try {
    p.sim.pay(o.payParams);
    await p.until(
      async () => p.sim.notifications().find((n) => n.out_trade_no === o.orderNo)!.attempts.length >= 2,
      'WeChat to retry the refused notification',
    );
  } finally {
    proxy.set('up');
  }
  await p.until(async () => (await statusOf(o.fan.token, o.orderNo)) === 'ticketed', 'the ticket');
});

it('finds an order whose commit answer was lost by its key, and sells its seat to no one else', async () => {
  const fan = await p.login('openid-outage-3');
  const other = await p.login('openid-outage-4');
  // A commit goes out on a connection already open: a new one would wait for its handshake.
  expect((await order(other.token, 4, 'lost-answer-warm-1')).status).toBe(201);
  const first = orderBehindCut(fan, 3, 'lost-answer-0001', 1);
  try {
    await first.committed;
    proxy.set('down');
    expect((await first.reply).status).toBe(503);
  } finally {
    proxy.set('up');
  }
  // Redis let go of the seat, MySQL still has it: the unique key refuses the second buyer.
  const taken = await order(other.token, 3, 'lost-answer-other-1');
  expect(taken.status).toBe(409);
  expect(taken.body.error.code).toBe('SEAT_TAKEN');
  const retry = await order(fan.token, 3, 'lost-answer-0001');
  expect(retry.status).toBe(201);
  const [[row]] = await direct.query<RowDataPacket[]>('SELECT order_no FROM orders WHERE user_id = ?', [
    fan.userId,
  ]);
  expect(retry.body.orderNo).toBe(row!.order_no);
  // The retry also tells Redis about the order again (a rebuild from MySQL): its seat shows held.
  await p.until(async () => (await held()).includes(s.seatIds[3]!), 'Redis to hold the seat again');
  // Paid, it is ticketed, and Redis records the sale.
  const pay = await p.api.call('POST', `/api/v1/orders/${retry.body.orderNo}/pay`, { token: fan.token });
  p.sim.pay(pay.body.payParams);
  await p.until(async () => (await statusOf(fan.token, retry.body.orderNo)) === 'ticketed', 'the ticket');
  const states = (await p.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`)).body;
  expect(states.sold).toContain(s.seatIds[3]);
  const [claims] = await direct.query<RowDataPacket[]>('SELECT order_id FROM seat_claims WHERE seat_id = ?', [
    s.seatIds[3],
  ]);
  expect(claims).toHaveLength(1);
});

it('answers 201 when a batch committed, its answer was lost, and MySQL is reachable again', async () => {
  const fan = await p.login('openid-outage-5');
  expect((await order(fan.token, 5, 'lost-then-back-warm')).status).toBe(201);
  const first = orderBehindCut(fan, 6, 'lost-then-back-0001', 2);
  try {
    await first.committed;
  } finally {
    // The connection that carried the commit dies; new ones get through.
    proxy.set('down');
    proxy.set('up');
  }
  const r = await first.reply;
  expect(r.status).toBe(201);
  const [rows] = await direct.query<RowDataPacket[]>(
    'SELECT order_no FROM orders WHERE user_id = ? ORDER BY id',
    [fan.userId],
  );
  expect(rows.map((x) => x.order_no)).toEqual([expect.any(String), r.body.orderNo]);
  expect(await held()).toContain(s.seatIds[6]);
});
