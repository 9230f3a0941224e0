import type { RowDataPacket } from 'mysql2/promise';
import { beijingDate } from '../src/payments/reconcile';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

/** Daily reconciliation against the trade bill the simulator serves, in WeChat's format. */
let p: PayEnv;
let s: SessionFixture;
beforeAll(async () => {
  p = await createPayEnv();
  s = await createSession(p.deps, { seats: 10 });
});
afterAll(() => p.close());

async function paid(i: number, drop = false): Promise<string> {
  const o = await p.orderAndPrepay(`openid-bill-${i}`, { sessionId: s.sessionId, seatIds: [s.seatIds[i]] });
  if (drop) p.sim.setFaults({ drop: true });
  p.sim.pay(o.payParams);
  p.sim.resetFaults();
  return o.orderNo;
}

it('finds a payment we never heard of, recovers it into tickets, and reports nothing else', async () => {
  const seen = await paid(0);
  const lost = await paid(1, true); // its notification never comes
  await p.until(async () => {
    const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [
      seen,
    ]);
    return rows[0]!.status === 3;
  }, 'the first order ticketed');
  const today = beijingDate(p.clock.now());
  const report = await p.deps.reconciler.reconcile(today, p.clock.now());
  expect(report).toMatchObject({
    billDate: today,
    wechatPayments: 2,
    ourPayments: 1,
    recovered: 1,
    unmatched: [],
  });
  await p.until(async () => {
    const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [
      lost,
    ]);
    return rows[0]!.status === 3;
  }, 'the recovered order ticketed');
  expect(await p.deps.reconciler.reconcile(today, p.clock.now())).toBeUndefined(); // one run per day
  const [[row]] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT status, recovered FROM reconciliations WHERE bill_date = ?',
    [today],
  );
  expect(row).toMatchObject({ status: 'ok', recovered: 1 });
});
