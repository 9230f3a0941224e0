import type { RowDataPacket } from 'mysql2/promise';
import { makeCode, manualKeyOf } from '@showtix/shared-types/dist/ticket-code';
import { insertSession } from '../src/catalog/admin-repo';
import { loadSessionCatalog } from '../src/catalog/repo';
import { openSale } from '../src/jobs/session-lifecycle';
import { expireDueOrders } from '../src/orders/expiry';
import { audit } from './helpers/auditor';
import { deleteKeys } from './helpers/env';
import {
  assignStaff,
  createSession,
  createUsers,
  type SessionFixture,
  type SessionOptions,
} from './helpers/fixtures';
import { createPayEnv, FREE_REFUNDS, type PayEnv } from './helpers/pay-env';
import { newDevice } from './helpers/gate';
import { ADMIN_ENV, loginAdmin } from './admin/helpers';

/**
 * 改签 (issue 16): a ticket moves to another seat of the same session or to another session of
 * the same show. The new seat is held through the purchase gate before the old one is given
 * up; a higher price is paid through WeChat Pay, a lower one refunded on the original payment.
 */
let p: PayEnv;
let s: SessionFixture; // 8 VIP seats (1,880 yuan), then 680-yuan seats
let other: { sessionId: string; seatIds: string[] }; // another session of the same show
let staffToken: string;
let adminToken: string;
const VIP = 188_000;
const STAND = 68_000;
let vip = 0; // next free VIP seat index
let stand = 8; // next free stand seat index

beforeAll(async () => {
  p = await createPayEnv({ env: ADMIN_ENV });
  s = await createSession(p.deps, {
    seats: 60,
    vip: 8,
    refundRules: FREE_REFUNDS,
  });
  adminToken = await loginAdmin(p.api);
  // The organiser's rules: exchanges allowed until two hours before a session.
  const rules = await p.api.call('PATCH', `/api/v1/admin/shows/${s.showId}`, {
    token: adminToken,
    body: { exchangeRules: { allowed: true, cutoffMinutes: 120 } },
  });
  expect(rules.status).toBe(200);
  expect(rules.body.exchangeRules).toEqual({ allowed: true, cutoffMinutes: 120 });
  const shown = await p.api.call('GET', `/api/v1/shows/${s.showId}`);
  expect(shown.body.exchangeRules).toEqual({ allowed: true, cutoffMinutes: 120 });
  other = await addSession(s.showId);
  const [staff] = await createUsers(p.deps, 1);
  await assignStaff(p.deps, staff!, s.showId);
  staffToken = await p.api.tokenFor(staff!);
});
afterAll(() => p.close());

/** A session of a show of its own, which allows exchanges (no cutoff). */
async function exchangeableSession(o: SessionOptions) {
  const fresh = await createSession(p.deps, o);
  await p.deps.db.query('UPDATE shows SET exchange_allowed = 1 WHERE id = ?', [fresh.showId]);
  return fresh;
}

/** Another session of the show, on sale, of one tier over the venue's seats. */
async function addSession(showId: string, o: { realName?: boolean; priceFen?: number } = {}) {
  const now = p.clock.now();
  const sessionId = await insertSession(p.deps.db, {
    showId,
    startsAt: new Date(now.getTime() + 40 * 86_400_000),
    saleStartsAt: now,
    purchaseLimit: 4,
    holdMinutes: 15,
    realName: o.realName ?? false,
    tiers: [{ name: '看台', priceFen: o.priceFen ?? 50_000 }],
  });
  await openSale(p.deps, sessionId, now);
  const cat = (await loadSessionCatalog(p.deps.db, sessionId))!;
  return { sessionId, seatIds: [...cat.seats.keys()] };
}

const one = async (sql: string, params: unknown[]) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0]![0]!;
type Fan = { token: string; userId: string };
const getOrder = (fan: Fan, orderNo: string) =>
  p.api.call('GET', `/api/v1/orders/${orderNo}`, { token: fan.token }).then((r) => r.body);
const ticketsOf = async (fan: Fan) =>
  (await p.api.call('GET', '/api/v1/tickets', { token: fan.token })).body.items as {
    ticketId: string;
    status: string;
    seatId?: string;
    sessionId: string;
  }[];
const ticketStatus = async (fan: Fan, ticketId: string) =>
  (await ticketsOf(fan)).find((t) => t.ticketId === ticketId)?.status;

/** A ticketed order of the given seats. */
const ticketed = (openid: string, seatIds: string[], sessionId = s.sessionId) =>
  ticketedOrder(openid, { sessionId, seatIds });

/** A ticketed order of this order body (seats, zone units, attendees). */
async function ticketedOrder(openid: string, body: Record<string, unknown>) {
  const { fan, order, payParams } = await p.orderAndPrepay(openid, body);
  p.sim.pay(payParams);
  await p.until(async () => (await getOrder(fan, order.orderNo)).status === 'ticketed', 'tickets');
  const full = await getOrder(fan, order.orderNo);
  const orderId = String((await one('SELECT id FROM orders WHERE order_no = ?', [order.orderNo])).id);
  return {
    fan,
    orderNo: order.orderNo as string,
    orderId,
    ticketIds: full.items.map((i: any) => i.ticketId) as string[],
  };
}
const vipSeats = (n: number) => s.seatIds.slice(vip, (vip += n));
const standSeats = (n: number) => s.seatIds.slice(stand, (stand += n));

const exchange = (fan: Fan, orderNo: string, body: Record<string, unknown>, key?: string) =>
  p.api.call('POST', `/api/v1/orders/${orderNo}/exchange`, {
    token: fan.token,
    body,
    ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
  });
/** Exchanges every ticket of the order for these seats. */
const exchangeAll = (
  o: { fan: Fan; orderNo: string; ticketIds: string[] },
  seatIds: string[],
  sessionId = s.sessionId,
) => exchange(o.fan, o.orderNo, { ticketIds: o.ticketIds, sessionId, seatIds });
/** A fan's ticketed stand seat with an exchange up to a VIP seat, waiting for the difference. */
async function pendingUpgrade(openid: string) {
  const [from] = standSeats(1);
  const [to] = vipSeats(1);
  const o = await ticketed(openid, [from!]);
  return { from: from!, to: to!, o, r: await exchangeAll(o, [to!]) };
}
/** Pays an exchange's difference through the simulator. */
async function payFor(fan: Fan, orderNo: string) {
  const pay = await p.api.call('POST', `/api/v1/orders/${orderNo}/pay`, { token: fan.token });
  expect(pay.status).toBe(200);
  p.sim.pay(pay.body.payParams);
}
/** Binds a device to the ticket and has the gate admit it. */
async function admit(fan: Fan, ticketId: string) {
  const device = newDevice();
  const bound = await p.api.call('POST', `/api/v1/tickets/${ticketId}/bind`, {
    token: fan.token,
    body: { publicKey: device.pub, manualKey: manualKeyOf(device.priv, ticketId) },
  });
  const scan = await p.api.call('POST', '/api/v1/checkin', {
    token: staffToken,
    body: {
      qr: makeCode(bound.body.binding, device.priv, p.clock.now().getTime()),
      gate: 'A1',
      sessionId: s.sessionId,
    },
  });
  expect(scan.body.result).toBe('admitted');
}
const seatStates = async (sessionId = s.sessionId) =>
  (await p.api.call('GET', `/api/v1/sessions/${sessionId}/seat-states`)).body as {
    sold: string[];
    held: string[];
  };
const clean = async (sessionId = s.sessionId) => {
  await p
    .until(async () => (await audit(p.deps, sessionId, p.clock.now().getTime())).length === 0, 'audit', 5_000)
    .catch(() => undefined);
  expect(await audit(p.deps, sessionId, p.clock.now().getTime())).toEqual([]);
};

it('same price, same session: immediate; the old ticket is exchanged, the new one valid, the old seat back on sale', async () => {
  const [from, to] = standSeats(2);
  const o = await ticketed('openid-x-equal', [from!]);
  const r = await exchangeAll(o, [to!]);
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({
    status: 'done',
    diffFen: 0,
    oldFen: STAND,
    newFen: STAND,
    oldTicketIds: o.ticketIds,
  });
  expect(r.body.newTicketIds).toHaveLength(1);
  expect(await ticketStatus(o.fan, o.ticketIds[0]!)).toBe('exchanged');
  const fresh = (await ticketsOf(o.fan)).find((t) => t.ticketId === r.body.newTicketIds[0]);
  expect(fresh).toMatchObject({ status: 'valid', seatId: to });
  await p.until(async () => !(await seatStates()).sold.includes(from!), 'old seat released');
  expect((await seatStates()).sold).toContain(to);
  // The original order keeps no claim on the old seat; the exchanged item cannot be refunded.
  expect(Number((await one('SELECT COUNT(*) n FROM seat_claims WHERE order_id = ?', [o.orderId])).n)).toBe(0);
  const again = await p.api.call('POST', `/api/v1/orders/${o.orderNo}/refund`, {
    token: o.fan.token,
    body: { ticketIds: o.ticketIds },
  });
  expect(again.status).toBe(404);
  // The fan's order view marks the item exchanged (the app offers no refund of it).
  const view = await p.api.call('GET', `/api/v1/orders/${o.orderNo}`, { token: o.fan.token });
  expect(view.body.items).toEqual([expect.objectContaining({ ticketId: o.ticketIds[0], exchanged: true })]);
  // The order drawer and the fan's order list the exchange.
  const listed = await p.api.call('GET', `/api/v1/orders/${o.orderNo}/exchanges`, { token: o.fan.token });
  expect(listed.body.items).toHaveLength(1);
  const drawer = await p.api.call('GET', `/api/v1/admin/orders/${o.orderNo}`, { token: adminToken });
  expect(drawer.body.exchanges).toEqual([
    expect.objectContaining({ status: 'done', orderNo: r.body.orderNo }),
  ]);
  expect(drawer.body.tickets[0].status).toBe('已改签');
  await clean();
});

it('a retried request (same Idempotency-Key) answers the same exchange; another body under it is refused', async () => {
  const [from] = standSeats(1);
  const [to, other2] = vipSeats(2);
  const o = await ticketed('openid-x-idem', [from!]);
  const body = { ticketIds: o.ticketIds, sessionId: s.sessionId, seatIds: [to] };
  const [a, b] = await Promise.all([
    exchange(o.fan, o.orderNo, body, 'exchange-key-0001'),
    exchange(o.fan, o.orderNo, body, 'exchange-key-0001'),
  ]);
  expect([a.status, b.status]).toEqual([201, 201]);
  expect(b.body.exchangeId).toBe(a.body.exchangeId);
  const again = await exchange(o.fan, o.orderNo, body, 'exchange-key-0001');
  expect(again.body.exchangeId).toBe(a.body.exchangeId);
  const changed = await exchange(o.fan, o.orderNo, { ...body, seatIds: [other2] }, 'exchange-key-0001');
  expect(changed.body.error?.code).toBe('IDEMPOTENCY_CONFLICT');
  expect(
    Number((await one('SELECT COUNT(*) n FROM exchanges WHERE original_order_id = ?', [o.orderId])).n),
  ).toBe(1);
  await clean();
});

it('general admission: a unit of a zone for a unit of a zone, the slots accounted for', async () => {
  const z = await exchangeableSession({ zones: [{ name: '内场', capacity: 5 }] });
  const { fan, orderNo, ticketIds } = await ticketedOrder('openid-x-zone', {
    sessionId: z.sessionId,
    zoneId: z.zoneIds[0],
    quantity: 2,
  });
  const t1 = ticketIds[0]!;
  const r = await exchange(fan, orderNo, { ticketIds: [t1], sessionId: z.sessionId, zoneId: z.zoneIds[0] });
  expect(r.body).toMatchObject({ status: 'done', diffFen: 0 });
  expect(await ticketStatus(fan, t1)).toBe('exchanged');
  await p.until(
    async () => (await audit(p.deps, z.sessionId, p.clock.now().getTime())).length === 0,
    'zone released',
  );
  const zc = await one('SELECT COUNT(*) n FROM zone_claims WHERE session_id = ?', [z.sessionId]);
  expect(Number(zc.n)).toBe(2);
});

it('higher price: the old ticket stays valid until the difference is paid through WeChat Pay', async () => {
  const { to, o, r } = await pendingUpgrade('openid-x-up');
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({ status: 'pending', diffFen: VIP - STAND });
  expect(r.body.order).toMatchObject({ status: 'pending', amountFen: VIP - STAND });
  expect(await ticketStatus(o.fan, o.ticketIds[0]!)).toBe('valid');
  expect((await seatStates()).held).toContain(to);
  // The same tickets in a second exchange meanwhile: refused; a refund of them too.
  const twice = await exchangeAll(o, standSeats(1));
  expect(twice.body.error?.code).toBe('EXCHANGE_IN_PROGRESS');
  const refund = await p.api.call('POST', `/api/v1/orders/${o.orderNo}/refund`, {
    token: o.fan.token,
    body: {},
  });
  expect(refund.body.error?.code).toBe('EXCHANGE_IN_PROGRESS');

  await payFor(o.fan, r.body.orderNo);
  await p.until(async () => (await ticketStatus(o.fan, o.ticketIds[0]!)) === 'exchanged', 'exchange done');
  const tickets = await ticketsOf(o.fan);
  expect(tickets.find((t) => t.seatId === to)).toMatchObject({ status: 'valid' });
  const paid = await one(
    'SELECT p.amount_fen FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.order_no = ?',
    [r.body.orderNo],
  );
  expect(paid.amount_fen).toBe(VIP - STAND);
  await clean();
});

it('higher price not paid in time: the hold expires and nothing changed', async () => {
  const [from, to] = standSeats(2);
  const o = await ticketed('openid-x-expire', [from!]);
  const [vipTo] = vipSeats(1);
  void to;
  const r = await exchangeAll(o, [vipTo!]);
  expect(r.body.status).toBe('pending');
  // Its hold ran out (the clock is not moved: the simulator checks signatures on real time).
  await p.deps.db.query('UPDATE orders SET expire_at = ? WHERE order_no = ?', [
    new Date(p.clock.now().getTime() - 1),
    r.body.orderNo,
  ]);
  const deps = {
    db: p.deps.db,
    orders: p.deps.orders,
    inventory: p.deps.inventory,
    log: p.deps.log,
    orphanGraceMs: 60_000,
  };
  await expireDueOrders(deps, p.clock.now());
  const listed = await p.api.call('GET', `/api/v1/orders/${o.orderNo}/exchanges`, { token: o.fan.token });
  expect(listed.body.items[0]).toMatchObject({ status: 'cancelled' });
  expect(await ticketStatus(o.fan, o.ticketIds[0]!)).toBe('valid');
  const st = await seatStates();
  expect(st.held).not.toContain(vipTo);
  expect(st.sold).not.toContain(vipTo);
  expect(st.sold).toContain(from);
  // Exchangeable again once its exchange order is gone.
  const again = await exchangeAll(o, [vipTo!]);
  expect(again.body.status).toBe('pending');
  await clean();
});

it('lower price, another session: the difference is refunded on the original payment', async () => {
  const [from] = vipSeats(1);
  const o = await ticketed('openid-x-down', [from!]);
  const to = other.seatIds[0]!;
  const r = await exchangeAll(o, [to], other.sessionId);
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({ status: 'done', diffFen: 50_000 - VIP, toSessionId: other.sessionId });
  const tickets = await ticketsOf(o.fan);
  expect(tickets.find((t) => t.ticketId === o.ticketIds[0])?.status).toBe('exchanged');
  expect(tickets.find((t) => t.sessionId === other.sessionId)).toMatchObject({ status: 'valid', seatId: to });
  await p.until(
    async () =>
      (await one('SELECT refunded_fen FROM payments WHERE order_id = ?', [o.orderId])).refunded_fen ===
      VIP - 50_000,
    'difference refunded',
  );
  const refund = await one(
    "SELECT out_refund_no, amount_fen, status FROM refunds WHERE order_id = ? AND kind = 'exchange'",
    [o.orderId],
  );
  expect(refund).toMatchObject({ amount_fen: VIP - 50_000, status: 2 });
  expect(refund.out_refund_no).toMatch(/^RX/);
  await p.until(async () => !(await seatStates()).sold.includes(from!), 'old seat released');
  await clean();
  await clean(other.sessionId);
});

it('refuses: not allowed, after the cutoff, another show, a taken seat, a checked-in or refunding ticket', async () => {
  const o = await ticketed('openid-x-refuse', standSeats(3));
  const body = (t: string[], seatIds: string[], sessionId = s.sessionId) => ({
    ticketIds: t,
    sessionId,
    seatIds,
  });
  // Another show's session.
  const elsewhere = await createSession(p.deps, { seats: 4 });
  expect(
    (await exchange(o.fan, o.orderNo, body([o.ticketIds[0]!], [elsewhere.seatIds[0]!], elsewhere.sessionId)))
      .body.error?.code,
  ).toBe('EXCHANGE_OTHER_SHOW');
  // A seat sold to someone else.
  const taken = await ticketed('openid-x-holder', standSeats(1));
  const sold = (await getOrder(taken.fan, taken.orderNo)).items[0].seatId;
  const r = await exchange(o.fan, o.orderNo, body([o.ticketIds[0]!], [sold]));
  expect(r.body.error?.code).toBe('SEAT_TAKEN');
  expect(await ticketStatus(o.fan, o.ticketIds[0]!)).toBe('valid');
  // A refunding ticket.
  await p.api.call('POST', `/api/v1/orders/${o.orderNo}/refund`, {
    token: o.fan.token,
    body: { ticketIds: [o.ticketIds[1]] },
  });
  expect((await exchange(o.fan, o.orderNo, body([o.ticketIds[1]!], standSeats(1)))).body.error?.code).toBe(
    'EXCHANGE_TICKET_INVALID',
  );
  // A checked-in ticket.
  await admit(o.fan, o.ticketIds[2]!);
  expect((await exchange(o.fan, o.orderNo, body([o.ticketIds[2]!], standSeats(1)))).body.error?.code).toBe(
    'EXCHANGE_TICKET_INVALID',
  );
  // Not someone else's order.
  const stranger = await p.login('openid-x-stranger');
  expect((await exchange(stranger, o.orderNo, body([o.ticketIds[0]!], standSeats(1)))).status).toBe(404);
  // After the cutoff, then not allowed at all.
  await p.deps.db.query('UPDATE shows SET exchange_cutoff_minutes = ? WHERE id = ?', [
    31 * 24 * 60,
    s.showId,
  ]);
  expect((await exchange(o.fan, o.orderNo, body([o.ticketIds[0]!], standSeats(1)))).body.error?.code).toBe(
    'EXCHANGE_CLOSED',
  );
  await p.deps.db.query('UPDATE shows SET exchange_allowed = 0, exchange_cutoff_minutes = 120 WHERE id = ?', [
    s.showId,
  ]);
  expect((await exchange(o.fan, o.orderNo, body([o.ticketIds[0]!], standSeats(1)))).body.error?.code).toBe(
    'EXCHANGE_NOT_ALLOWED',
  );
  await p.deps.db.query('UPDATE shows SET exchange_allowed = 1 WHERE id = ?', [s.showId]);
  // Bad input: nothing changed.
  expect(
    (await exchange(o.fan, o.orderNo, { ticketIds: ['nope'], sessionId: s.sessionId, seatIds: ['1'] }))
      .status,
  ).toBe(400);
  expect(await ticketStatus(o.fan, o.ticketIds[0]!)).toBe('valid');
  await clean();
});

it('race: two fans exchanging into one seat and a third buying it at the same moment: exactly one wins', async () => {
  const [target] = vipSeats(1);
  const a = await ticketed('openid-x-race-a', standSeats(1));
  const b = await ticketed('openid-x-race-b', standSeats(1));
  const buyer = await p.login('openid-x-race-c');
  const results = await Promise.all([
    exchange(a.fan, a.orderNo, { ticketIds: a.ticketIds, sessionId: s.sessionId, seatIds: [target] }),
    exchange(b.fan, b.orderNo, { ticketIds: b.ticketIds, sessionId: s.sessionId, seatIds: [target] }),
    p.api.call('POST', '/api/v1/orders', {
      token: buyer.token,
      body: { sessionId: s.sessionId, seatIds: [target] },
    }),
  ]);
  const won = results.filter((r) => r.status === 201);
  expect(won).toHaveLength(1);
  for (const r of results.filter((x) => x.status !== 201)) expect(r.body.error?.code).toBe('SEAT_TAKEN');
  // The losers keep their old tickets.
  for (const [fan, res] of [
    [a, results[0]!],
    [b, results[1]!],
  ] as const)
    if (res.status !== 201) expect(await ticketStatus(fan.fan, fan.ticketIds[0]!)).toBe('valid');
  expect(Number((await one('SELECT COUNT(*) n FROM seat_claims WHERE seat_id = ?', [target])).n)).toBe(1);
  await clean();
});

it('Redis loses the session with an exchange waiting for payment: rebuilt from MySQL, then completed', async () => {
  const { from, to, o, r } = await pendingUpgrade('openid-x-flush');
  expect(r.body.status).toBe('pending');
  await deleteKeys(p.config.redisUrl, `${p.config.redisKeyPrefix}`);
  await p.deps.inventory.rebuild(s.sessionId, p.clock.now().getTime());
  const st = await seatStates();
  expect(st.held).toContain(to);
  expect(st.sold).toContain(from);
  await clean();
  await payFor(o.fan, r.body.orderNo);
  await p.until(async () => (await ticketStatus(o.fan, o.ticketIds[0]!)) === 'exchanged', 'exchange done');
  await p.until(async () => !(await seatStates()).sold.includes(from), 'old seat released');
  await clean();
});

it('a ticket admitted while its exchange waits for payment: the payment is refunded, the old ticket kept', async () => {
  const { to, o, r } = await pendingUpgrade('openid-x-late-scan');
  await admit(o.fan, o.ticketIds[0]!);
  await payFor(o.fan, r.body.orderNo);
  await p.until(async () => {
    const l = await p.api.call('GET', `/api/v1/orders/${o.orderNo}/exchanges`, { token: o.fan.token });
    return l.body.items[0]?.status === 'failed' && l.body.items[0]?.refund?.status === 'succeeded';
  }, 'exchange failed and refunded');
  expect(await ticketStatus(o.fan, o.ticketIds[0]!)).toBe('valid');
  await p.until(
    async () => !(await seatStates()).sold.includes(to) && !(await seatStates()).held.includes(to),
    'new seat released',
  );
  await clean();
});

describe('real-name sessions: the attendee moves with the ticket', () => {
  let rn: SessionFixture;
  let rn2: { sessionId: string; seatIds: string[] };
  const attendee = { name: '欧阳娜娜', idType: 'id_card', idNumber: '11010519491231002X' };

  beforeAll(async () => {
    rn = await exchangeableSession({ seats: 20, realName: true });
    rn2 = await addSession(rn.showId, { realName: true, priceFen: STAND });
  });

  it('same session, then another session: the new ticket has the same attendee, one ID one ticket per session holds', async () => {
    const o = await ticketedOrder('openid-x-rn', {
      sessionId: rn.sessionId,
      seatIds: [rn.seatIds[0]],
      attendees: [attendee],
    });
    const { fan } = o;
    const r = await exchangeAll(o, [rn.seatIds[1]!], rn.sessionId);
    expect(r.body).toMatchObject({ status: 'done' });
    const xOrder = await getOrder(fan, r.body.orderNo);
    expect(xOrder.items[0]).toMatchObject({ seatId: rn.seatIds[1], attendee: { name: '欧**娜' } });
    const claim = await one(
      'SELECT o.order_no FROM attendee_claims c JOIN orders o ON o.id = c.order_id WHERE c.session_id = ?',
      [rn.sessionId],
    );
    expect(claim.order_no).toBe(r.body.orderNo);
    // Redis learns it too (through the outbox), as a rebuild would read it.
    const hash = String(
      (await one('SELECT id_hash FROM attendee_claims WHERE session_id = ?', [rn.sessionId])).id_hash,
    );
    const rnIds = p.deps.keys.session(rn.sessionId).ids;
    const xId = String((await one('SELECT id FROM orders WHERE order_no = ?', [r.body.orderNo])).id);
    await p.until(async () => (await p.deps.redis.hget(rnIds, hash)) === xId, 'the ID moved in Redis');
    // The same person cannot buy a second ticket of that session with another account.
    const other = await p.login('openid-x-rn-other');
    const dup = await p.api.call('POST', '/api/v1/orders', {
      token: other.token,
      body: { sessionId: rn.sessionId, seatIds: [rn.seatIds[2]], attendees: [attendee] },
    });
    expect(dup.body.error?.code).toBe('ID_TAKEN');
    // On to another session: the claim moves there, the first session's is given up.
    const newTicket = r.body.newTicketIds[0];
    const r2 = await exchange(fan, r.body.orderNo, {
      ticketIds: [newTicket],
      sessionId: rn2.sessionId,
      seatIds: [rn2.seatIds[0]],
    });
    expect(r2.body).toMatchObject({ status: 'done', toSessionId: rn2.sessionId });
    const claims = (
      await p.deps.db.query<RowDataPacket[]>(
        'SELECT session_id, order_id FROM attendee_claims WHERE order_id IN (?, ?)',
        [
          (await one('SELECT id FROM orders WHERE order_no = ?', [r.body.orderNo])).id,
          (await one('SELECT id FROM orders WHERE order_no = ?', [r2.body.orderNo])).id,
        ],
      )
    )[0];
    expect(claims.map((c) => String(c.session_id))).toEqual([rn2.sessionId]);
    expect((await getOrder(fan, r2.body.orderNo)).items[0].attendee).toMatchObject({ name: '欧**娜' });
    // The first session gave the ID up: its holder may buy a ticket there again.
    await p.until(async () => (await p.deps.redis.hget(rnIds, hash)) === null, 'the ID given up in Redis');
    const back = await p.api.call('POST', '/api/v1/orders', {
      token: other.token,
      body: { sessionId: rn.sessionId, seatIds: [rn.seatIds[3]], attendees: [attendee] },
    });
    expect(back.status).toBe(201);
    await clean(rn.sessionId);
    await clean(rn2.sessionId);
  });
});

it('the sales report counts each exchanged seat once, in the tier the fan holds', async () => {
  const t = await exchangeableSession({ seats: 10, vip: 2 });
  // Up: a 看台 seat for a VIP seat, the difference paid. Level: a 看台 seat for another, at once.
  const up = await ticketed('openid-x-report-up', [t.seatIds[2]!], t.sessionId);
  const upX = await exchangeAll(up, [t.seatIds[0]!], t.sessionId);
  await payFor(up.fan, upX.body.orderNo);
  const level = await ticketed('openid-x-report-level', [t.seatIds[3]!], t.sessionId);
  expect((await exchangeAll(level, [t.seatIds[4]!], t.sessionId)).body.status).toBe('done');
  await p.until(async () => (await ticketStatus(up.fan, up.ticketIds[0]!)) === 'exchanged', 'exchange done');
  const r = await p.api.call('GET', `/api/v1/admin/reports/sales?sessionId=${t.sessionId}`, {
    token: adminToken,
  });
  expect(r.status).toBe(200);
  const tiers = r.body.byTier.map((x: any) => [x.priceFen, x.tickets, x.grossFen]);
  // Before: the given-up 看台 tickets were counted too (3 看台), and a level exchange's new
  // ticket only if a difference had been paid.
  expect(tiers).toEqual([
    [VIP, 1, VIP],
    [STAND, 1, STAND],
  ]);
});

it('the exchange order says whose exchange it is, and its tickets are not refundable (told, not a payment error)', async () => {
  const t = await exchangeableSession({ seats: 10, vip: 2 });
  const o = await ticketed('openid-x-norefund', [t.seatIds[2]!], t.sessionId);
  const x = await exchangeAll(o, [t.seatIds[0]!], t.sessionId);
  await payFor(o.fan, x.body.orderNo);
  await p.until(
    async () => (await getOrder(o.fan, x.body.orderNo)).status === 'ticketed',
    'exchange ticketed',
  );
  expect((await getOrder(o.fan, x.body.orderNo)).exchangedFrom).toBe(o.orderNo);
  expect((await getOrder(o.fan, o.orderNo)).exchangedFrom).toBeUndefined();
  // Before: the refund was refused as exceeding what this order paid (only the difference).
  const refund = await p.api.call('POST', `/api/v1/orders/${x.body.orderNo}/refund`, {
    token: o.fan.token,
    body: {},
  });
  expect(refund.body.error).toMatchObject({ code: 'REFUND_NOT_ALLOWED', message: '改签所得门票不支持退票' });
});
