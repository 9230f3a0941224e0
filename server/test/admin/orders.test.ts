import ExcelJS from 'exceljs';
import type { RowDataPacket } from 'mysql2/promise';
import { createSession, type SessionFixture } from '../helpers/fixtures';
import { createPayEnv, type PayEnv } from '../helpers/pay-env';
import { ADMIN_ENV, ADMIN_PASSWORD, loginAdmin } from './helpers';

/** Orders paid through the real path (simulator, notifications, consumers), then seen and refunded by an admin. */
let p: PayEnv;
let s: SessionFixture;
let admin: string;
let operator: string;
let staffManager: string;
let seat = 0;

const as = (token: string) => (method: string, path: string, body?: unknown) =>
  p.api.call(method, path, { token, body });
const login = (username: string) => loginAdmin(p.api, username);

beforeAll(async () => {
  p = await createPayEnv({ env: ADMIN_ENV });
  s = await createSession(p.deps, { seats: 40, vip: 10 });
  admin = await login('root');
  for (const [username, roles] of [
    ['ops', ['operator']],
    ['smgr', ['staff_manager']],
  ] as const) {
    await as(admin)('POST', '/api/v1/admin/admins', { username, password: ADMIN_PASSWORD, roles });
  }
  operator = await login('ops');
  staffManager = await login('smgr');
});
afterAll(() => p.close());

async function order(openid: string, n: number, pay: boolean, contactPhone?: string) {
  const fan = await p.login(openid);
  const body = { sessionId: s.sessionId, seatIds: s.seatIds.slice(seat, (seat += n)), contactPhone };
  const o = (await p.api.call('POST', '/api/v1/orders', { token: fan.token, body })).body;
  if (pay) {
    const prepay = (await p.api.call('POST', `/api/v1/orders/${o.orderNo}/pay`, { token: fan.token })).body;
    p.sim.pay(prepay.payParams);
    await p.until(
      async () =>
        (await p.api.call('GET', `/api/v1/orders/${o.orderNo}`, { token: fan.token })).body.status ===
        'ticketed',
      'tickets',
    );
  }
  return { fan, order: o };
}

describe('live sales dashboard', () => {
  it('counts held and sold units per tier, orders and payments per minute, success rate and revenue', async () => {
    const before = await as(operator)('GET', `/api/v1/admin/sessions/${s.sessionId}/dashboard`);
    expect(before.status).toBe(200);
    expect(before.body.totals).toEqual({
      capacity: 40,
      sold: 0,
      held: 0,
      available: 40,
      reserved: 0,
      comp: 0,
    });
    expect(before.body.paymentSuccessRate).toBeNull();

    const paid = await order('dash-paid', 2, true); // VIP seats 0, 1
    await order('dash-pending', 1, false); // VIP seat 2
    // The simulator stamps success_time with the real clock; this env's manual clock stood still
    // since it was made, so a minute boundary crossed meanwhile put the payment in a minute after
    // the dashboard's `now`, outside its window (a CI flake). In production both are real time.
    p.clock.set(Date.now());
    const d = (await as(operator)('GET', `/api/v1/admin/sessions/${s.sessionId}/dashboard`)).body;
    expect(d.totals).toEqual({ capacity: 40, sold: 2, held: 1, available: 37, reserved: 0, comp: 0 });
    expect(d.tiers[0]).toMatchObject({ name: 'VIP', capacity: 10, sold: 2, held: 1, available: 7 });
    expect(d.tiers[1]).toMatchObject({ name: '看台', capacity: 30, sold: 0, held: 0 });
    expect(d.orders).toMatchObject({ total: 2, pending: 1, paid: 1 });
    expect(d.paymentSuccessRate).toBe(1);
    expect(d.revenueFen).toBe(paid.order.amountFen);
    expect(d.perMinute).toHaveLength(30);
    expect(d.perMinute.reduce((n: number, m: { orders: number }) => n + m.orders, 0)).toBe(2);
    expect(d.perMinute.reduce((n: number, m: { payments: number }) => n + m.payments, 0)).toBe(1);
    expect(d.seatStates.sold).toEqual(expect.arrayContaining([s.seatIds[0], s.seatIds[1]]));
    expect(d.seatStates.held).toEqual([s.seatIds[2]]);
    expect(d.queue).toEqual({ enabled: false, length: null });
    const overview = await as(operator)('GET', '/api/v1/admin/dashboard');
    expect(overview.body.items.map((x: { id: string }) => x.id)).toContain(s.sessionId);
  });

  it('is for operators: staff managers, fans and staff are refused', async () => {
    expect((await as(staffManager)('GET', `/api/v1/admin/sessions/${s.sessionId}/dashboard`)).status).toBe(
      403,
    );
    expect(
      (await as(await p.api.tokenFor('1'))('GET', `/api/v1/admin/sessions/${s.sessionId}/dashboard`)).status,
    ).toBe(403);
    expect(
      (
        await as(await p.api.tokenFor('1', ['staff']))(
          'GET',
          `/api/v1/admin/sessions/${s.sessionId}/dashboard`,
        )
      ).status,
    ).toBe(403);
    expect((await as(operator)('GET', '/api/v1/admin/sessions/999999/dashboard')).status).toBe(404);
  });
});

describe('orders', () => {
  let ticketed: Awaited<ReturnType<typeof order>>;

  beforeAll(async () => {
    ticketed = await order('orders-ticketed', 1, true, '13800138000');
  });

  it('searches by order number, buyer, status, session and date', async () => {
    const q = (query: string) => as(operator)('GET', `/api/v1/admin/orders?${query}`).then((r) => r.body);
    const byNo = await q(`orderNo=${ticketed.order.orderNo.slice(0, -2)}`);
    expect(byNo.items.map((o: { orderNo: string }) => o.orderNo)).toContain(ticketed.order.orderNo);
    const byBuyer = await q(`buyer=${ticketed.fan.userId}`);
    expect(byBuyer.items).toHaveLength(1);
    expect(byBuyer.items[0]).toMatchObject({
      orderNo: ticketed.order.orderNo,
      status: 'ticketed',
      buyer: { userId: ticketed.fan.userId },
    });
    expect(byBuyer.items[0].buyer.openidMasked).toMatch(/^orde\*+eted$/);
    expect((await q('status=pending')).total).toBe(1);
    expect((await q(`sessionId=${s.sessionId}&pageSize=2`)).items).toHaveLength(2);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await q(`from=${encodeURIComponent(later)}`)).total).toBe(0);
    expect((await as(operator)('GET', '/api/v1/admin/orders?status=bogus')).status).toBe(400);
    expect((await as(operator)('GET', '/api/v1/admin/orders?orderNo=abc')).status).toBe(400);
  });

  it('shows recorded attendees masked, and finds orders by ID number through the keyed hash', async () => {
    const id = '11010519491231002X';
    const [[row]] = await p.deps.db.query<RowDataPacket[]>('SELECT id FROM orders WHERE order_no = ?', [
      ticketed.order.orderNo,
    ]);
    // As the purchase path stores a real-name attendee (fair-access migration, its vault).
    const sealed = p.deps.vault.seal({ name: '张三丰', idType: 'id_card', idNumber: id });
    await p.deps.db.query(
      `INSERT INTO order_attendees (order_id, position, id_type, name_enc, id_number_enc, name_masked, id_masked, id_hash)
       VALUES (?, 0, ?, ?, ?, ?, ?, ?)`,
      [
        row!.id,
        sealed.idType,
        sealed.nameEnc,
        sealed.idNumberEnc,
        sealed.nameMasked,
        sealed.idMasked,
        sealed.idHash,
      ],
    );
    const listed = await as(operator)('GET', `/api/v1/admin/orders?orderNo=${ticketed.order.orderNo}`);
    expect(listed.body.items[0].attendees).toEqual([{ name: '张*丰', idNumber: '110***********002X' }]);
    const byId = await as(operator)('GET', `/api/v1/admin/orders?idNumber=${id.toLowerCase()}`);
    expect(byId.body.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([ticketed.order.orderNo]);
    expect((await as(operator)('GET', '/api/v1/admin/orders?idNumber=110105194912310037')).body.total).toBe(
      0,
    );
  });

  it('shows the 联系手机 masked and finds orders by the full number (+86, spaces and dashes allowed)', async () => {
    const q = (query: string) => as(operator)('GET', `/api/v1/admin/orders?${query}`);
    const found = await q(`phone=${encodeURIComponent('+86 138-0013-8000')}`);
    expect(found.body.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([ticketed.order.orderNo]);
    expect(found.body.items[0].contactPhone).toBe('138****8000');
    expect((await q('phone=13800138001')).body.total).toBe(0);
    const partial = await q('phone=8000');
    expect(partial.status).toBe(400);
    expect(partial.body.error.details).toEqual([{ path: 'phone', message: '请输入正确的 11 位手机号' }]);
    const d = await as(operator)('GET', `/api/v1/admin/orders/${ticketed.order.orderNo}`);
    expect(d.body.contactPhone).toBe('138****8000');
  });

  it('shows an order with its items, payments and tickets', async () => {
    const d = await as(operator)('GET', `/api/v1/admin/orders/${ticketed.order.orderNo}`);
    expect(d.status).toBe(200);
    expect(d.body.items).toEqual([
      expect.objectContaining({ tierName: 'VIP', label: expect.stringMatching(/^A区 \d+排\d+座$/) }),
    ]);
    expect(d.body.payments).toEqual([
      expect.objectContaining({ amountFen: ticketed.order.amountFen, status: '已支付' }),
    ]);
    expect(d.body.tickets).toHaveLength(1);
    expect(d.body.tickets[0].status).toBe('有效');
    expect((await as(operator)('GET', '/api/v1/admin/orders/123456789')).status).toBe(404);
  });

  it('refunds in full through the buyer refund path, audited', async () => {
    const bad = await as(operator)('POST', `/api/v1/admin/orders/${ticketed.order.orderNo}/refund`, {});
    expect(bad.status).toBe(400);
    const r = await as(operator)('POST', `/api/v1/admin/orders/${ticketed.order.orderNo}/refund`, {
      reason: '演出取消',
    });
    expect(r.status).toBe(200);
    expect(r.body.refunds).toEqual([
      expect.objectContaining({ amountFen: ticketed.order.amountFen, feeFen: 0, reason: '演出取消' }),
    ]);
    expect(r.body.refunds[0].requestedBy).toBe('管理员 ops');
    const [[row]] = await p.deps.db.query<RowDataPacket[]>(
      'SELECT requested_by FROM refunds WHERE out_refund_no = ?',
      [r.body.refunds[0].outRefundNo],
    );
    expect(row!.requested_by).toMatch(/^admin:\d+$/);
    expect(r.body.audit.map((a: { action: string }) => a.action)).toContain('order.refund');
    const done = await p.until(async () => {
      const x = await as(operator)('GET', `/api/v1/admin/orders/${ticketed.order.orderNo}`);
      return x.body.status === 'refunded' && x.body;
    }, 'refunded');
    expect(done.refunds[0].status).toBe('退款成功');
    expect(done.tickets[0].status).toBe('已作废');
    // A pending order cannot be refunded.
    const pending = (await as(operator)('GET', '/api/v1/admin/orders?status=pending')).body.items[0];
    expect(
      (await as(operator)('POST', `/api/v1/admin/orders/${pending.orderNo}/refund`, { reason: 'x' })).status,
    ).toBe(409);
    const d = (await as(operator)('GET', `/api/v1/admin/sessions/${s.sessionId}/dashboard`)).body;
    expect(d.refundedFen).toBe(ticketed.order.amountFen);
    expect(d.orders.refunded).toBe(1);
  });

  it('exports CSV and XLSX, audited', async () => {
    const csv = await as(operator)('GET', `/api/v1/admin/orders/export?format=csv&sessionId=${s.sessionId}`);
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toContain('订单号,状态,演出');
    expect(lines[0]).toContain('联系手机(已脱敏)');
    expect(lines.some((l) => l.includes('138****8000'))).toBe(true);
    expect(String(csv.body)).not.toContain('13800138000');
    expect(lines).toHaveLength(1 + 3);
    const res = await fetch(`${p.api.url}/api/v1/admin/orders/export?format=xlsx`, {
      headers: { authorization: `Bearer ${operator}` },
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.getWorksheet('订单')!;
    expect(ws.getRow(1).getCell(1).value).toBe('订单号');
    expect(ws.rowCount).toBe(4);
    const [rows] = await p.deps.db.query<RowDataPacket[]>(
      "SELECT * FROM admin_audit_log WHERE action = 'order.export'",
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.actor).toBe('ops');
  });

  it('are closed to staff managers and fans', async () => {
    expect((await as(staffManager)('GET', '/api/v1/admin/orders')).status).toBe(403);
    expect(
      (
        await as(staffManager)('POST', `/api/v1/admin/orders/${ticketed.order.orderNo}/refund`, {
          reason: 'x',
        })
      ).status,
    ).toBe(403);
    expect((await as(ticketed.fan.token)('GET', '/api/v1/admin/orders')).status).toBe(403);
  });
});
