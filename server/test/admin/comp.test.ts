import type { RowDataPacket } from 'mysql2/promise';
import { InventoryAudit } from '../../src/inventory/audit';
import { seatValue } from '../../src/redis/records';
import { deleteKeys } from '../helpers/env';
import { assignStaff, createSession, createUsers, purchase } from '../helpers/fixtures';
import { adminHarness, auditRows, boundTicket, claimComps, type AdminHarness } from './helpers';

/**
 * Reserved units and complimentary tickets (issue 16, organiser part), over HTTP: held back
 * from public sale in Redis and MySQL (and after a flush), the 85% public share, the race with
 * a buyer, issue / claim / void, and the reports counting comps apart.
 */
let h: AdminHarness;
let op: ReturnType<AdminHarness['as']>;
const ID = '11010519491231002X';

beforeAll(async () => {
  h = await adminHarness();
  op = h.as(await h.tokenWithRoles(['operator']));
});
afterAll(() => h.close());

const q = async (sql: string, args: unknown[] = []) =>
  (await h.env.deps.db.query<RowDataPacket[]>(sql, args))[0];
const seatInRedis = (sessionId: string, seatId: string) =>
  h.env.deps.redis.hget(h.env.deps.keys.session(sessionId).seats, seatId);
const buy = (userId: string, sessionId: string, seatIds: string[]) =>
  purchase(h.env, userId, { sessionId, seatIds }).then(
    (o) => ({ ok: true as const, orderNo: o.orderNo }),
    (e: { code?: string }) => ({ ok: false as const, code: e.code }),
  );
/** What a flush of Redis does to this test's sessions (only this test's key prefix). */
const flush = () => deleteKeys(h.env.config.redisUrl, h.env.config.redisKeyPrefix);

describe('reserving', () => {
  it('a reserved seat is refused to fans by Redis and by MySQL, and again after a flush and rebuild', async () => {
    const s = await createSession(h.env.deps, { seats: 40 });
    const [a, b] = [s.seatIds[0]!, s.seatIds[1]!];
    const r = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: [a, b],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ capacity: 40, reserved: 2, reservableMax: 6, publicPercent: 95 });
    expect(await seatInRedis(s.sessionId, a)).toBe(seatValue.reserved());
    // A retry reserves nothing twice.
    expect(
      (await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, { seatIds: [a] })).body
        .reserved,
    ).toBe(2);
    const [fan] = await createUsers(h.env.deps, 1);
    expect(await buy(fan!, s.sessionId, [a])).toEqual({ ok: false, code: 'SEAT_TAKEN' });
    // The fan's seat map shows it unavailable.
    const map = await h.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`);
    expect(map.body.sold).toEqual(expect.arrayContaining([a, b]));

    // MySQL alone refuses it: the claim key is taken by the reservation.
    await expect(
      h.env.deps.db.query('INSERT INTO seat_claims (session_id, seat_id, order_id) VALUES (?, ?, 42)', [
        s.sessionId,
        a,
      ]),
    ).rejects.toMatchObject({ errno: 1062 });

    // The session page locks reserved seats like sold ones (no tier change, no removal).
    expect((await op('GET', `/api/v1/admin/sessions/${s.sessionId}`)).body.claimedSeatIds).toEqual(
      expect.arrayContaining([a, b]),
    );

    await flush();
    expect(await buy(fan!, s.sessionId, [b])).toEqual({ ok: false, code: 'SEAT_TAKEN' });
    expect(await seatInRedis(s.sessionId, a)).toBe(seatValue.reserved());
    const audit = new InventoryAudit({ ...h.env.deps });
    const found = (await audit.run([s.sessionId], h.env.clock.now())).get(s.sessionId)!;
    expect(found).toMatchObject({ diff: 0, seats: [] });

    const rel = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats/release`, {
      seatIds: [a],
    });
    expect(rel.body.reserved).toBe(1);
    expect(await buy(fan!, s.sessionId, [a])).toMatchObject({ ok: true });
    expect((await auditRows(h, 'reservation.seats.add')).map((x) => x.entity_id)).toContain(s.sessionId);
    expect((await auditRows(h, 'reservation.seats.release')).map((x) => x.entity_id)).toContain(s.sessionId);
  });

  it('refuses a seat sold or held, and one that is not in the session, changing nothing', async () => {
    const s = await createSession(h.env.deps, { seats: 40 });
    const [fan] = await createUsers(h.env.deps, 1);
    await buy(fan!, s.sessionId, [s.seatIds[5]!]);
    const r = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: [s.seatIds[4]!, s.seatIds[5]!],
    });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'SEAT_TAKEN', details: { seatId: s.seatIds[5] } });
    expect(await seatInRedis(s.sessionId, s.seatIds[4]!)).toBeNull();
    const other = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: ['999999'],
    });
    expect(other.body.error.code).toBe('VALIDATION_FAILED');
    expect((await op('GET', `/api/v1/admin/sessions/${s.sessionId}/reservations`)).body.reserved).toBe(0);
  });

  it('refuses a reservation above 15% of the session with PUBLIC_SHARE_TOO_LOW, nothing changed', async () => {
    const s = await createSession(h.env.deps, { seats: 20, zones: [{ name: 'GA', capacity: 80 }] });
    const meta = h.env.deps.keys.session(s.sessionId).meta;
    const availBefore = Number(await h.env.deps.redis.hget(meta, 'avail'));
    expect(
      (
        await op('PUT', `/api/v1/admin/sessions/${s.sessionId}/reservations/zones/${s.zoneIds[0]}`, {
          reserved: 12,
        })
      ).status,
    ).toBe(200);
    const seats = s.seatIds.slice(0, 4);
    const r = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: seats,
    });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({
      code: 'PUBLIC_SHARE_TOO_LOW',
      details: { capacity: 100, reservedAfter: 16, reservableMax: 15 },
    });
    for (const id of seats) expect(await seatInRedis(s.sessionId, id)).toBeNull();
    expect(Number(await h.env.deps.redis.hget(meta, 'avail'))).toBe(availBefore - 12);
    const zone = await op('PUT', `/api/v1/admin/sessions/${s.sessionId}/reservations/zones/${s.zoneIds[0]}`, {
      reserved: 16,
    });
    expect(zone.body.error.code).toBe('PUBLIC_SHARE_TOO_LOW');
    const ok = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: seats.slice(0, 3),
    });
    expect(ok.body).toMatchObject({ reserved: 15, publicPercent: 85 });
    expect(Number(await h.env.deps.redis.hget(meta, 'avail'))).toBe(availBefore - 15);
    // Releasing part of the zone gives the units back to sale; the count is the target (idempotent).
    const down = await op('PUT', `/api/v1/admin/sessions/${s.sessionId}/reservations/zones/${s.zoneIds[0]}`, {
      reserved: 2,
    });
    expect(down.body.zones[0]).toMatchObject({ reserved: 2 });
    expect(Number(await h.env.deps.redis.hget(meta, 'avail'))).toBe(availBefore - 5);
  });

  it('race: a fan buying a seat while it is being reserved, exactly one of the two gets it', async () => {
    const s = await createSession(h.env.deps, { seats: 40 });
    const fans = await createUsers(h.env.deps, 6);
    for (let i = 0; i < 6; i++) {
      const seat = s.seatIds[i]!;
      const [fan, org] = await Promise.all([
        buy(fans[i]!, s.sessionId, [seat]),
        op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, { seatIds: [seat] }),
      ]);
      expect([fan.ok, org.status === 200]).toContain(true);
      expect(fan.ok !== (org.status === 200)).toBe(true);
      const claims = await q('SELECT order_id FROM seat_claims WHERE session_id = ? AND seat_id = ?', [
        s.sessionId,
        seat,
      ]);
      expect(claims).toHaveLength(1);
      expect(String(claims[0]!.order_id) === '0').toBe(!fan.ok);
      // Release the reservation again so the next round's public share is unaffected.
      if (!fan.ok)
        await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats/release`, {
          seatIds: [seat],
        });
    }
  });
});

describe('complimentary tickets', () => {
  const issue = (sessionId: string, body: object) =>
    op('POST', `/api/v1/admin/sessions/${sessionId}/comps`, body);

  it('issues from reserved seats, idempotently, audited; claim binds to one WeChat account; void frees the seats', async () => {
    const s = await createSession(h.env.deps, { seats: 40 });
    const [a, b, c] = s.seatIds;
    await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, { seatIds: [a, b] });
    const body = {
      idempotencyKey: 'comp-test-0001',
      name: '张三',
      phone: '13800138000',
      seatIds: [a, b],
      note: '赞助商',
    };
    expect(
      (await issue(s.sessionId, { ...body, idempotencyKey: 'comp-test-0000', seatIds: [c] })).body.error.code,
    ).toBe('UNIT_NOT_RESERVED');
    const r = await issue(s.sessionId, body);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      state: 'issued',
      nameMasked: '张*',
      phoneMasked: '138****8000',
      note: '赞助商',
    });
    expect(r.body.claimCode).toMatch(/^[A-Z2-9]{10}$/);
    expect(r.body.tickets).toHaveLength(2);
    const [order] = await q('SELECT status, channel, amount_fen, user_id FROM orders WHERE id = ?', [
      r.body.orderId,
    ]);
    expect(order).toMatchObject({ status: 3, channel: 'comp', amount_fen: 0 });
    expect(await q('SELECT 1 FROM payments WHERE order_id = ?', [r.body.orderId])).toHaveLength(0);
    expect((await auditRows(h, 'comp.issue')).map((x) => x.entity_id)).toContain(r.body.orderId);
    // Same key, same request: the same order. Same key, another request: a conflict.
    expect((await issue(s.sessionId, body)).body.orderId).toBe(r.body.orderId);
    expect((await issue(s.sessionId, { ...body, name: '李四' })).body.error.code).toBe(
      'IDEMPOTENCY_CONFLICT',
    );
    expect((await issue(s.sessionId, { ...body, idempotencyKey: 'comp-test-0002' })).body.error.code).toBe(
      'UNIT_IN_USE',
    );
    const rel = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats/release`, {
      seatIds: [a],
    });
    expect(rel.body.error.code).toBe('UNIT_IN_USE');

    // The person claims them in the mini-program; a second account cannot.
    const [u1, u2] = await createUsers(h.env.deps, 2);
    const claim = (u: string, code: string) =>
      h.api.tokenFor(u).then((t) => h.api.call('POST', '/api/v1/comps/claim', { token: t, body: { code } }));
    expect((await claim(u1!, 'ABCDEFGH23')).body.error.code).toBe('COMP_CODE_INVALID');
    expect((await claim(u1!, r.body.claimCode)).body).toMatchObject({ orderId: r.body.orderId, tickets: 2 });
    expect((await claim(u1!, r.body.claimCode)).status).toBe(200);
    expect((await claim(u2!, r.body.claimCode)).body.error.code).toBe('COMP_ALREADY_CLAIMED');
    // A retry of the issue after the claim still answers the same comp (the key is the organiser's).
    expect((await issue(s.sessionId, body)).body).toMatchObject({
      orderId: r.body.orderId,
      state: 'claimed',
    });
    expect(
      await q('SELECT user_id FROM tickets WHERE order_id = ? AND user_id = ?', [r.body.orderId, u1]),
    ).toHaveLength(2);
    const wallet = await h.api.call('GET', '/api/v1/tickets', { token: await h.api.tokenFor(u1!) });
    expect(wallet.status).toBe(200);
    expect(JSON.stringify(wallet.body)).toContain(r.body.tickets[0].ticketNo);

    // A refund of a comp is refused (no money), nothing changed.
    const refund = await h.api.call('POST', `/api/v1/orders/${r.body.orderNo}/refund`, {
      token: await h.api.tokenFor(u1!),
      body: {},
    });
    expect(refund.status).toBeGreaterThanOrEqual(400);
    // Nor is it exchanged (改签), even where the show allows exchanges: the comp keeps the seat
    // held back for it, and the reserved seat never goes to public sale that way.
    await q('UPDATE shows SET exchange_allowed = 1, exchange_cutoff_minutes = 0 WHERE id = ?', [s.showId]);
    const exchange = await h.api.call('POST', `/api/v1/orders/${r.body.orderNo}/exchange`, {
      token: await h.api.tokenFor(u1!),
      body: { ticketIds: [r.body.tickets[0].ticketNo], sessionId: s.sessionId, seatIds: [c] },
    });
    expect(exchange.body.error.code).toBe('EXCHANGE_NOT_ALLOWED');

    const v = await op('POST', `/api/v1/admin/comps/${r.body.orderId}/void`, { reason: '赞助取消' });
    expect(v.body).toMatchObject({ state: 'voided', voidReason: '赞助取消' });
    expect(v.body.tickets.map((t: { status: string }) => t.status)).toEqual(['voided', 'voided']);
    expect((await op('POST', `/api/v1/admin/comps/${r.body.orderId}/void`, { reason: 'again' })).status).toBe(
      200,
    );
    expect((await auditRows(h, 'comp.void')).map((x) => x.entity_id)).toContain(r.body.orderId);
    expect((await claim(u2!, r.body.claimCode)).body.error.code).toBe('COMP_CODE_INVALID');
    // The seats went back to the reservation: reissued, or released to the public.
    expect(
      (await issue(s.sessionId, { ...body, idempotencyKey: 'comp-test-0003', seatIds: [a] })).status,
    ).toBe(201);
    expect(
      (await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats/release`, { seatIds: [b] }))
        .status,
    ).toBe(200);
    const list = await op('GET', `/api/v1/admin/sessions/${s.sessionId}/comps`);
    expect(list.body.items.map((i: { state: string }) => i.state)).toEqual(['issued', 'voided']);
  });

  it('a checked-in comp ticket is never voided', async () => {
    const s = await createSession(h.env.deps, { seats: 40 });
    await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, { seatIds: [s.seatIds[0]] });
    const r = await issue(s.sessionId, {
      idempotencyKey: 'comp-test-0100',
      name: '王五',
      phone: '13900139000',
      seatIds: [s.seatIds[0]],
    });
    const [t] = await q('SELECT id FROM tickets WHERE order_id = ?', [r.body.orderId]);
    await h.env.deps.db.query(
      "INSERT INTO checkins (ticket_id, session_id, gate, staff_user_id, mode, scanned_at, recorded_at) VALUES (?, ?, 'A', 1, 'online', NOW(3), NOW(3))",
      [t!.id, s.sessionId],
    );
    const v = await op('POST', `/api/v1/admin/comps/${r.body.orderId}/void`, { reason: 'x' });
    expect(v.body.error.code).toBe('TICKET_CHECKED_IN');
    expect((await q('SELECT status FROM orders WHERE id = ?', [r.body.orderId]))[0]!.status).toBe(3);
  });

  it('at the gate: a claimed comp ticket admits once and cannot be voided after; a voided one is refused', async () => {
    const s = await createSession(h.env.deps, { seats: 40 });
    const [fan, staff] = await createUsers(h.env.deps, 2);
    await assignStaff(h.env.deps, staff!, s.showId);
    await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: s.seatIds.slice(0, 2),
    });
    const person = { name: '孙八', phone: '13500135000' };
    const one = await issue(s.sessionId, {
      ...person,
      idempotencyKey: 'comp-test-0500',
      seatIds: [s.seatIds[0]],
    });
    const two = await issue(s.sessionId, {
      ...person,
      idempotencyKey: 'comp-test-0501',
      seatIds: [s.seatIds[1]],
    });
    const token = await h.api.tokenFor(fan!);
    const staffToken = await h.api.tokenFor(staff!, ['fan', 'staff']);
    const tickets = await claimComps(h, token, [one, two]);
    const bound = (orderNo: string) => boundTicket(h, token, staffToken, tickets.get(orderNo)!, s.sessionId);
    const [scanOne, scanTwo] = [await bound(one.body.orderNo), await bound(two.body.orderNo)];
    expect((await scanOne()).body.result).toBe('admitted');
    expect(
      (await op('POST', `/api/v1/admin/comps/${one.body.orderId}/void`, { reason: 'x' })).body.error.code,
    ).toBe('TICKET_CHECKED_IN');
    await op('POST', `/api/v1/admin/comps/${two.body.orderId}/void`, { reason: '不来了' });
    expect((await scanTwo()).body.result).not.toBe('admitted');
  });

  it('real-name: the comp takes its person ID (one ID, one ticket), in Redis and after a flush', async () => {
    const s = await createSession(h.env.deps, { seats: 40, realName: true });
    await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: s.seatIds.slice(0, 2),
    });
    const base = {
      name: '王五',
      phone: '13900139000',
      attendee: { name: '王五', idType: 'id_card', idNumber: ID },
    };
    const noId = await issue(s.sessionId, {
      idempotencyKey: 'comp-test-0200',
      name: '王五',
      phone: '13900139000',
      seatIds: [s.seatIds[0]],
    });
    expect(noId.body.error.code).toBe('VALIDATION_FAILED');
    const r = await issue(s.sessionId, {
      ...base,
      idempotencyKey: 'comp-test-0201',
      seatIds: [s.seatIds[0]],
    });
    expect(r.status).toBe(201);
    expect(r.body.idMasked).toBeTruthy();
    const twice = await issue(s.sessionId, {
      ...base,
      idempotencyKey: 'comp-test-0202',
      seatIds: [s.seatIds[1]],
    });
    expect(twice.body.error.code).toBe('ID_TAKEN');
    const [fan] = await createUsers(h.env.deps, 1);
    const attendees = [{ name: '王五', idType: 'id_card' as const, idNumber: ID }];
    const sale = () =>
      purchase(h.env, fan!, { sessionId: s.sessionId, seatIds: [s.seatIds[5]!], attendees }).catch((e) => e);
    expect((await sale()).code).toBe('ID_TAKEN');
    await flush();
    expect((await sale()).code).toBe('ID_TAKEN');
    await op('POST', `/api/v1/admin/comps/${r.body.orderId}/void`, { reason: '换人' });
    const after = await sale();
    expect(after.code).toBeUndefined();
    expect(after.orderNo).toBeDefined();
  });

  it('zones: issued from reserved units; the reservation cannot shrink below what is issued', async () => {
    const s = await createSession(h.env.deps, { zones: [{ name: 'GA', capacity: 100 }] });
    const zone = `/api/v1/admin/sessions/${s.sessionId}/reservations/zones/${s.zoneIds[0]}`;
    await op('PUT', zone, { reserved: 5 });
    // 赵六's comps of the zone, each under its own key.
    const issueToZhao = (key: string, quantity: number) =>
      issue(s.sessionId, {
        idempotencyKey: key,
        name: '赵六',
        phone: '13700137000',
        zoneId: s.zoneIds[0],
        quantity,
      });
    const r = await issueToZhao('comp-test-0300', 3);
    expect(r.status).toBe(201);
    expect((await op('PUT', zone, { reserved: 1 })).body.error.code).toBe('UNIT_IN_USE');
    expect((await op('PUT', zone, { reserved: 3 })).body.zones[0]).toMatchObject({ reserved: 3, issued: 3 });
    const more = await issueToZhao('comp-test-0301', 1);
    expect(more.body.error.code).toBe('UNIT_NOT_RESERVED');
    // After a flush the rebuild keeps the zone's reserved units out of the free ones.
    await flush();
    const [fan] = await createUsers(h.env.deps, 1);
    await purchase(h.env, fan!, { sessionId: s.sessionId, zoneId: s.zoneIds[0]!, quantity: 1 });
    const meta = h.env.deps.keys.session(s.sessionId).meta;
    expect(Number(await h.env.deps.redis.hget(meta, 'avail'))).toBe(100 - 3 - 1);
    const found = (await new InventoryAudit({ ...h.env.deps }).run([s.sessionId], h.env.clock.now())).get(
      s.sessionId,
    );
    expect(found).toMatchObject({ diff: 0, seats: [] });
  });

  it('reports and the dashboard count comps apart from sales: no gross, no fee', async () => {
    const s = await createSession(h.env.deps, { seats: 40 });
    await op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
      seatIds: s.seatIds.slice(0, 3),
    });
    await issue(s.sessionId, {
      idempotencyKey: 'comp-test-0400',
      name: '钱七',
      phone: '13600136000',
      seatIds: s.seatIds.slice(0, 2),
    });
    const sales = await op('GET', `/api/v1/admin/reports/sales?sessionId=${s.sessionId}`);
    expect(sales.body.byChannel).toEqual([{ channel: 'comp', orders: 1, tickets: 2, grossFen: 0 }]);
    expect(sales.body.totals).toMatchObject({ orders: 0, tickets: 0, grossFen: 0 });
    const settlement = await op('GET', `/api/v1/admin/reports/settlement?sessionId=${s.sessionId}`);
    expect(settlement.body.totals).toMatchObject({ payments: 0, grossFen: 0, feeFen: 0 });
    const dash = await op('GET', `/api/v1/admin/sessions/${s.sessionId}/dashboard`);
    expect(dash.body.totals).toMatchObject({ capacity: 40, sold: 0, reserved: 3, comp: 2, available: 37 });
    expect(dash.body.comp).toEqual({ orders: 1, tickets: 2 });
    expect(dash.body.orders.total).toBe(0);
  });
});
