import type { RowDataPacket } from 'mysql2/promise';
import pino from 'pino';
import { ORDER_STATUS } from '../src/lifecycle/statuses';
import { riskOptions } from '../src/config/risk';
import { NotifiedPayments } from '../src/payments/batch';
import { Keys } from '../src/redis/keys';
import { RiskService } from '../src/risk/service';
import { SuspiciousPayment } from '../src/payments/service';
import type { WxTransaction } from '../src/wechat/pay';
import { countedPool } from './helpers/counted-pool';
import { payEnvWithSession, type PayEnv } from './helpers/pay-env';
import type { SessionFixture } from './helpers/fixtures';

/**
 * WeChat's payment notifications that arrive together are applied in one transaction
 * (payments/batch.ts); whatever is not the plain case goes alone through applyTransaction, and
 * each receipt is answered as it would be alone. Consumers are off: orders stay PAID.
 */
let p: PayEnv;
let s: SessionFixture;
let seat = 0;

beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(30, { consumers: false }));
});
afterAll(() => p.close());

const q = async (sql: string, params: unknown[] = []) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0];

/** A fan's order paid at WeChat with its notification lost: the transaction as WeChat reports it. */
async function paidAtWechat(tag: string): Promise<{ orderNo: string; tx: WxTransaction }> {
  const o = await p.orderAndPrepay(`openid-batch-pay-${tag}`, {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[seat++]],
  });
  p.sim.setFaults({ drop: true });
  p.sim.pay(o.payParams);
  p.sim.resetFaults();
  const tx = await p.deps.pay.query(o.orderNo);
  expect(tx?.trade_state).toBe('SUCCESS');
  return { orderNo: o.orderNo, tx: tx! };
}

/** NotifiedPayments on the real pool, its calls counted, and the buyers each afterApply was given. */
function counted() {
  const { calls, db } = countedPool(p.deps.db);
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
  const after: string[][] = [];
  const payments = {
    applyTransaction: p.deps.payments.applyTransaction.bind(p.deps.payments),
    afterApply: (result: Parameters<typeof p.deps.payments.afterApply>[0], buyers: readonly string[]) => {
      if (result === 'applied') after.push([...buyers]);
      return p.deps.payments.afterApply(result, buyers);
    },
  };
  const batch = new NotifiedPayments(
    { db, wechat: p.config.wechat, log, payments },
    { batchMax: 50, inflightMax: 2 },
  );
  return { calls, batch, warnings, after };
}

const buyerOf = async (orderNo: string) =>
  String((await q('SELECT user_id FROM orders WHERE order_no = ?', [orderNo]))[0]!.user_id);
const streakOf = async (userId: string) =>
  Number((await q('SELECT expired_streak FROM users WHERE id = ?', [userId]))[0]!.expired_streak);

/** The order's status, and its payments' transaction ids and outcomes. */
async function stateOf(orderNo: string) {
  const [o] = await q('SELECT id, status, paid_at FROM orders WHERE order_no = ?', [orderNo]);
  const pays = await q('SELECT transaction_id, outcome FROM payments WHERE order_id = ? ORDER BY id', [
    o!.id,
  ]);
  const outbox = await q('SELECT topic FROM outbox WHERE aggregate_id = ? ORDER BY topic', [o!.id]);
  return {
    status: Number(o!.status),
    paidAt: o!.paid_at !== null,
    payments: pays.map((r) => [String(r.transaction_id), String(r.outcome)]),
    outbox: outbox.map((r) => String(r.topic)),
  };
}

it('applies the notifications that arrive together in one transaction, each order paid once', async () => {
  const paid = [];
  for (let i = 0; i < 5; i++) paid.push(await paidAtWechat(`plain-${i}`));
  const { calls, batch, warnings } = counted();
  const now = p.clock.now();
  expect(await Promise.all(paid.map((x) => batch.apply(x.tx, now)))).toEqual(Array(5).fill('applied'));
  expect(calls.getConnection).toBe(1); // alone, each took a transaction of its own
  expect(warnings).toEqual([]);
  for (const x of paid)
    expect(await stateOf(x.orderNo)).toEqual({
      status: ORDER_STATUS.PAID,
      paidAt: true,
      payments: [[x.tx.transaction_id, 'applied']],
      outbox: ['notice.send', 'order.paid'],
    });
});

it('leaves all but the plain case to applyTransaction, alone, each answered as alone', async () => {
  const a = await paidAtWechat('a');
  const before = await paidAtWechat('before');
  expect(await p.deps.payments.applyTransaction(before.tx, p.clock.now())).toBe('applied');
  const wrongAmount = await paidAtWechat('amount');
  const usd = await paidAtWechat('usd');
  const { calls, batch } = counted();
  const now = p.clock.now();
  const answers = await Promise.allSettled([
    batch.apply(a.tx, now),
    batch.apply(a.tx, now), // the same notification twice in one batch
    batch.apply(before.tx, now), // recorded before
    batch.apply({ ...wrongAmount.tx, amount: { ...wrongAmount.tx.amount!, total: 1 } }, now),
    batch.apply({ ...usd.tx, amount: { ...usd.tx.amount!, currency: 'USD' } }, now),
  ]);
  expect(answers.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.constructor))).toEqual([
    'applied',
    'duplicate',
    'duplicate',
    SuspiciousPayment,
    'wrong_currency',
  ]);
  // The batch's transaction (the four left alone each take one of the service's own pool).
  expect(calls.getConnection).toBe(1);
  expect(await stateOf(a.orderNo)).toMatchObject({
    status: ORDER_STATUS.PAID,
    payments: [[a.tx.transaction_id, 'applied']],
  });
  expect((await stateOf(before.orderNo)).payments).toEqual([[before.tx.transaction_id, 'applied']]);
  expect(await stateOf(wrongAmount.orderNo)).toMatchObject({ status: ORDER_STATUS.PENDING, payments: [] });
  expect(await stateOf(usd.orderNo)).toMatchObject({
    status: ORDER_STATUS.PENDING,
    payments: [[usd.tx.transaction_id, 'wrong_currency']],
  });
});

it('a transaction recorded before refuses the whole batch; it is rolled back and each goes alone', async () => {
  const f = await paidAtWechat('f');
  const g = await paidAtWechat('g');
  const h = await paidAtWechat('h');
  const [recorded] = await q("SELECT transaction_id FROM payments WHERE outcome = 'applied' LIMIT 1");
  // A receipt for h that looks plain (h pending, its amount) but carries a recorded transaction id.
  const reused = { ...h.tx, transaction_id: String(recorded!.transaction_id) };
  const { calls, batch, warnings } = counted();
  const now = p.clock.now();
  expect(
    await Promise.all([batch.apply(f.tx, now), batch.apply(reused, now), batch.apply(g.tx, now)]),
  ).toEqual(['applied', 'duplicate', 'applied']);
  expect(calls.getConnection).toBe(1); // the batch's, rolled back; then three alone, on the service's pool
  expect(warnings).toEqual(['payments batch failed; applying one by one']);
  expect((await stateOf(f.orderNo)).payments).toEqual([[f.tx.transaction_id, 'applied']]);
  expect((await stateOf(g.orderNo)).payments).toEqual([[g.tx.transaction_id, 'applied']]);
  expect(await stateOf(h.orderNo)).toEqual({
    status: ORDER_STATUS.PENDING,
    paidAt: false,
    payments: [],
    outbox: [],
  });
});

it("ends the batch's buyers' expired-hold streaks together, and a cooldown with them", async () => {
  const paid = [];
  for (let i = 0; i < 4; i++) paid.push(await paidAtWechat(`streak-${i}`));
  const buyers = await Promise.all(paid.map((x) => buyerOf(x.orderNo)));
  await q('UPDATE users SET expired_streak = 2 WHERE id IN (?)', [buyers]);
  // The last buyer's third expired hold: a cooldown (EXPIRED_HOLDS_MAX is 3).
  await p.deps.risk.onHoldExpired(buyers[3]!);
  const cooldownKey = new Keys(riskOptions(p.config).keyPrefix).cooldown(buyers[3]!);
  expect(await streakOf(buyers[3]!)).toBe(3);
  expect(await p.deps.redis.exists(cooldownKey)).toBe(1);
  const { batch, after } = counted();
  const now = p.clock.now();
  expect(await Promise.all(paid.map((x) => batch.apply(x.tx, now)))).toEqual(Array(4).fill('applied'));
  // One hand-over for the batch (it was one per paid order, each a statement of its own).
  expect(after).toEqual([buyers]);
  for (const u of buyers) expect(await streakOf(u)).toBe(0);
  expect(await p.deps.redis.exists(cooldownKey)).toBe(0);
});

it("a batch's streaks end in one statement; the cooldowns' sessions are read only when one ran", async () => {
  const users = [];
  for (let i = 0; i < 5; i++) users.push(await buyerOf((await paidAtWechat(`one-statement-${i}`)).orderNo));
  await q('UPDATE users SET expired_streak = 1 WHERE id IN (?)', [users]);
  const { calls, db } = countedPool(p.deps.db);
  const risk = new RiskService(db, p.deps.redis, p.deps.log, riskOptions(p.config));
  await risk.onPaid([...users, users[0]!]);
  expect(calls.query).toBe(1);
  for (const u of users) expect(await streakOf(u)).toBe(0);
  await risk.onPaid([]);
  expect(calls.query).toBe(1);
});
