import ExcelJS from 'exceljs';
import type { RowDataPacket } from 'mysql2/promise';
import { createSession, type SessionFixture } from '../helpers/fixtures';
import { adminHarness, auditRows, type AdminHarness } from './helpers';

/**
 * Reports over rows written straight into MySQL, so every number is known to the fen: day
 * boundaries in Beijing time, fees rounded per line (x.5 fen rounds up, as WeChat's bill does),
 * payments that never became sales, refunds not yet paid out, and admissions per gate and quarter.
 */
let h: AdminHarness;
let s: SessionFixture;
let operator: string;
const get = (path: string, token = operator) => h.api.call('GET', path, { token });

let nextId = 9_000_000;
async function paidOrder(o: {
  tierId: string;
  seats: number;
  priceFen: number;
  paidAt: string;
  outcome?: string;
  status?: number;
  session?: SessionFixture;
}): Promise<{ orderId: number; paymentId: number }> {
  const orderId = ++nextId;
  const ss = o.session ?? s;
  const db = h.env.deps.db;
  const amount = o.seats * o.priceFen;
  await db.query(
    `INSERT INTO orders (id, order_no, user_id, session_id, status, amount_fen, quantity, expire_at, created_at, paid_at)
     VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)`,
    [
      orderId,
      `R${orderId}`,
      ss.sessionId,
      o.status ?? 3,
      amount,
      o.seats,
      new Date(o.paidAt),
      new Date(o.paidAt),
      new Date(o.paidAt),
    ],
  );
  for (let i = 0; i < o.seats; i++)
    await db.query(
      'INSERT INTO order_items (order_id, session_id, seat_id, tier_id, price_fen) VALUES (?, ?, ?, ?, ?)',
      [orderId, ss.sessionId, ss.seatIds[(nextId * 3 + i) % ss.seatIds.length], o.tierId, o.priceFen],
    );
  const [res] = await db.query<any>(
    `INSERT INTO payments (order_id, transaction_id, amount_fen, success_time, outcome) VALUES (?, ?, ?, ?, ?)`,
    [orderId, `tx${orderId}`, amount, new Date(o.paidAt), o.outcome ?? 'applied'],
  );
  return { orderId, paymentId: res.insertId };
}

async function refund(p: { orderId: number; paymentId: number }, fen: number, at: string, status = 2) {
  await h.env.deps.db.query(
    `INSERT INTO refunds (order_id, payment_id, kind, out_refund_no, amount_fen, status, requested_by, created_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, 'buyer', ?, ?)`,
    [p.orderId, p.paymentId, `k${fen}`, `RF${p.orderId}-${fen}`, fen, status, new Date(at), new Date(at)],
  );
}

async function checkin(ticketId: number, gate: string, device: string | null, at: string) {
  await h.env.deps.db.query(
    `INSERT INTO checkins (ticket_id, session_id, gate, staff_user_id, device, mode, scanned_at, recorded_at)
     VALUES (?, ?, ?, 1, ?, 'online', ?, ?)`,
    [ticketId, s.sessionId, gate, device, new Date(at), new Date(at)],
  );
}

beforeAll(async () => {
  h = await adminHarness();
  operator = await h.tokenWithRoles(['operator']);
  s = await createSession(h.env.deps, { seats: 40, vip: 10, open: false });
  const [vip, stand] = s.tierIds as [string, string];
  // 2026-11-30 23:59:59 in Beijing: the last second of the 30th. Fee 0.60% of 250 = 1.5 -> 2.
  await paidOrder({ tierId: stand, seats: 1, priceFen: 250, paidAt: '2026-11-30T15:59:59.000Z' });
  // 2026-12-01 00:00:00 in Beijing. Fee of 750 = 4.5 -> 5; refunded in full on the 1st (fee 5 back).
  const second = await paidOrder({
    tierId: vip,
    seats: 3,
    priceFen: 250,
    paidAt: '2026-11-30T16:00:00.000Z',
  });
  await refund(second, 750, '2026-12-01T02:00:00.000Z');
  // A late payment refunded whole: WeChat took it (settlement), it sold nothing (sales). Fee 6, back 6.
  const late = await paidOrder({
    tierId: stand,
    seats: 1,
    priceFen: 1000,
    paidAt: '2026-12-01T03:00:00.000Z',
    outcome: 'late',
    status: 4,
  });
  await refund(late, 1000, '2026-12-01T03:00:01.000Z');
  // A refund still at WeChat is not money returned yet.
  const third = await paidOrder({
    tierId: stand,
    seats: 2,
    priceFen: 5000,
    paidAt: '2026-12-02T04:00:00.000Z',
  });
  await refund(third, 5000, '2026-12-02T05:00:00.000Z', 1);
  await checkin(1, 'A', 'dev-1', '2026-12-02T12:00:00.000Z');
  await checkin(2, 'A', 'dev-1', '2026-12-02T12:14:59.999Z');
  await checkin(3, 'B', null, '2026-12-02T12:45:00.000Z');
});
afterAll(() => h.close());

describe('sales', () => {
  it('counts paid orders per Beijing day, tier, channel and session, refunds on the day asked', async () => {
    const r = await get(`/api/v1/admin/reports/sales?showId=${s.showId}`);
    expect(r.status).toBe(200);
    expect(r.body.timeZone).toBe('Asia/Shanghai');
    expect(r.body.byDay).toEqual([
      { date: '2026-11-30', orders: 1, tickets: 1, grossFen: 250, refundedFen: 0 },
      { date: '2026-12-01', orders: 1, tickets: 3, grossFen: 750, refundedFen: 750 },
      { date: '2026-12-02', orders: 1, tickets: 2, grossFen: 10_000, refundedFen: 0 },
    ]);
    expect(r.body.byTier.map((t: any) => [t.tierName, t.orders, t.tickets, t.grossFen])).toEqual([
      ['VIP', 1, 3, 750],
      ['看台', 2, 3, 10_250],
    ]);
    expect(r.body.byChannel).toEqual([{ channel: 'miniprogram', orders: 3, tickets: 6, grossFen: 11_000 }]);
    expect(r.body.bySession).toEqual([
      expect.objectContaining({
        sessionId: s.sessionId,
        orders: 3,
        tickets: 6,
        grossFen: 11_000,
        refundedFen: 750,
      }),
    ]);
    expect(r.body.totals).toEqual({ orders: 3, tickets: 6, grossFen: 11_000, refundedFen: 750 });
  });

  it('takes a date range as whole Beijing days', async () => {
    const r = await get(`/api/v1/admin/reports/sales?sessionId=${s.sessionId}&from=2026-12-01&to=2026-12-01`);
    expect(r.body.byDay).toEqual([
      { date: '2026-12-01', orders: 1, tickets: 3, grossFen: 750, refundedFen: 750 },
    ]);
    const none = await get(`/api/v1/admin/reports/sales?showId=999999`);
    expect(none.body.totals).toEqual({ orders: 0, tickets: 0, grossFen: 0, refundedFen: 0 });
    expect(none.body.byChannel).toEqual([]);
  });
});

it('lists a session whose sales were before the range and its refunds within it', async () => {
  const early = await createSession(h.env.deps, { seats: 4, open: false });
  const paid = await paidOrder({
    session: early,
    tierId: early.tierIds[0]!,
    seats: 2,
    priceFen: 68_000,
    paidAt: '2026-11-01T02:00:00.000Z',
  });
  await refund(paid, 68_000, '2026-11-05T02:00:00.000Z');
  const r = await get(
    `/api/v1/admin/reports/sales?sessionId=${early.sessionId}&from=2026-11-05&to=2026-11-05`,
  );
  expect(r.body.byDay).toEqual([
    { date: '2026-11-05', orders: 0, tickets: 0, grossFen: 0, refundedFen: 68_000 },
  ]);
  expect(r.body.bySession).toEqual([
    expect.objectContaining({ sessionId: early.sessionId, orders: 0, grossFen: 0, refundedFen: 68_000 }),
  ]);
  expect(r.body.totals).toEqual({ orders: 0, tickets: 0, grossFen: 0, refundedFen: 68_000 });
});

describe('settlement', () => {
  it('charges 0.60% per payment line and gives it back per refund line, each rounded to the fen', async () => {
    const r = await get(`/api/v1/admin/reports/settlement?sessionId=${s.sessionId}`);
    expect(r.status).toBe(200);
    expect(r.body.feeRateBp).toBe(60);
    // Payments 250 + 750 + 1000 + 10000; fees 2 + 5 + 6 + 60; refunds paid out 750 + 1000, fees back 5 + 6.
    const want = {
      payments: 4,
      grossFen: 12_000,
      feeFen: 62,
      refundedFen: 1_750,
      netFen: 12_000 - 1_750 - 62,
    };
    expect(r.body.totals).toEqual(want);
    expect(r.body.rows).toEqual([expect.objectContaining({ sessionId: s.sessionId, ...want })]);
  });

  it("of one day: that day's payments and the refunds asked for that day", async () => {
    const r = await get('/api/v1/admin/reports/settlement?from=2026-11-30&to=2026-11-30');
    expect(r.body.totals).toEqual({ payments: 1, grossFen: 250, feeFen: 2, refundedFen: 0, netFen: 248 });
    const d1 = await get('/api/v1/admin/reports/settlement?from=2026-12-01&to=2026-12-01');
    expect(d1.body.totals).toEqual({
      payments: 2,
      grossFen: 1_750,
      feeFen: 0,
      refundedFen: 1_750,
      netFen: 0,
    });
  });
});

describe('check-in', () => {
  it('counts admissions per gate and device and per quarter hour, empty quarters shown', async () => {
    const r = await get(`/api/v1/admin/reports/checkins?sessionId=${s.sessionId}`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(3);
    expect(r.body.byGate).toEqual([
      { gate: 'A', device: 'dev-1', count: 2 },
      { gate: 'B', device: '', count: 1 },
    ]);
    expect(r.body.byTime).toEqual([
      { at: '2026-12-02T12:00:00.000Z', count: 2 },
      { at: '2026-12-02T12:15:00.000Z', count: 0 },
      { at: '2026-12-02T12:30:00.000Z', count: 0 },
      { at: '2026-12-02T12:45:00.000Z', count: 1 },
    ]);
  });
});

describe('export', () => {
  it('writes the settlement as CSV and XLSX in yuan, audited', async () => {
    const csv = await get(`/api/v1/admin/reports/export?kind=settlement&format=csv&sessionId=${s.sessionId}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = String(csv.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[1]).toBe('演出,场次时间,支付笔数,实收(元),手续费(元),退款(元),净额(元)');
    expect(lines[lines.length - 1]).toBe('合计,,4,120,0.62,17.5,101.88');
    const res = await fetch(
      `${h.api.url}/api/v1/admin/reports/export?kind=sales&format=xlsx&showId=${s.showId}`,
      {
        headers: { authorization: `Bearer ${operator}` },
      },
    );
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['按日(北京时间)', '按场次', '按票档', '按渠道']);
    const days = wb.getWorksheet('按日(北京时间)')!;
    expect(days.getRow(3).values).toEqual([undefined, '2026-12-01', 1, 3, 7.5, 7.5]);
    const rows = await auditRows(h, 'report.export');
    expect(rows.map((x: RowDataPacket) => x.entity_id)).toEqual(['settlement', 'sales']);
  });

  it('writes check-ins in Beijing time', async () => {
    const csv = await get(`/api/v1/admin/reports/export?kind=checkins&sessionId=${s.sessionId}`);
    expect(String(csv.body)).toContain('2026-12-02 20:00:00,2');
  });
});

describe('refusals', () => {
  it('refuses bad ranges, missing sessions and other roles, with clear errors', async () => {
    const back = await get('/api/v1/admin/reports/sales?from=2026-12-02&to=2026-12-01');
    expect(back.status).toBe(400);
    expect(JSON.stringify(back.body)).toContain('开始日期不能晚于结束日期');
    expect((await get('/api/v1/admin/reports/sales?from=2026-1-1')).status).toBe(400);
    expect((await get('/api/v1/admin/reports/sales?from=2025-01-01&to=2026-12-01')).status).toBe(400);
    expect((await get('/api/v1/admin/reports/checkins')).status).toBe(400);
    expect((await get('/api/v1/admin/reports/checkins?sessionId=999999')).status).toBe(404);
    expect((await get('/api/v1/admin/reports/export?kind=checkins')).status).toBe(400);
    expect((await get('/api/v1/admin/reports/export?kind=nope')).status).toBe(400);
    const staff = await h.tokenWithRoles(['staff_manager']);
    expect((await get('/api/v1/admin/reports/sales', staff)).status).toBe(403);
    expect((await h.api.call('GET', '/api/v1/admin/reports/sales')).status).toBe(401);
    expect(await auditRows(h, 'report.export')).toHaveLength(3); // the refused exports left no trace
  });
});

describe('degradation', () => {
  it('pause_nonessential stops the reports (503) until it is switched off', async () => {
    const flip = (on: boolean) =>
      h.api.call('PUT', '/api/v1/admin/degrade', {
        token: operator,
        body: { name: 'pause_nonessential', on },
      });
    expect((await flip(true)).status).toBe(200);
    try {
      const r = await get(`/api/v1/admin/reports/settlement?sessionId=${s.sessionId}`);
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('FEATURE_PAUSED');
      expect((await get(`/api/v1/admin/reports/export?kind=sales`)).status).toBe(503);
    } finally {
      expect((await flip(false)).status).toBe(200);
    }
    expect((await get(`/api/v1/admin/reports/settlement?sessionId=${s.sessionId}`)).status).toBe(200);
  });
});
