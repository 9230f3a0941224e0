import type { RowDataPacket } from 'mysql2/promise';
import type { Actor } from '../src/http/admin/http';
import { sessionChangesOf, transfersOf } from '../src/per-app';
import { resendStuckRefunds } from '../src/jobs/stuck-money';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { GateBench, newDevice, type HeldTicket } from './helpers/gate';
import { FREE_REFUNDS } from './helpers/pay-env';

/**
 * Ticket transfers (转赠, issue 16): offer, cancel, expiry at the cutoff, acceptance (one
 * transaction: old ticket dead, new one the receiver's), real-name re-binding under one ID one
 * ticket, the race of two receivers, and what refunds and a session cancel do with them.
 */
const g = new GateBench();
const who: Actor = { adminId: null as unknown as string, username: 'test-organiser', ip: '' };
const DAY_MIN = 24 * 60;

beforeAll(() => g.start());
afterAll(() => g.close());

const rows = async (sql: string, params: unknown[]) =>
  (await g.p.deps.db.query<RowDataPacket[]>(sql, params))[0];
const call = (method: string, path: string, token: string, body?: object) =>
  g.p.api.call(method, path, { token, ...(body ? { body } : {}) });

/** A valid mainland ID number (checksum) with a serial of its own. */
function idNumber(serial: number): string {
  const body = `11010519800101${String(serial % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, d, i) => a + Number(d) * w[i]!, 0);
  return body + '10X98765432'[sum % 11];
}

async function session(
  o: { realName?: boolean; cutoffMinutes?: number; onceOnly?: boolean; enabled?: boolean } = {},
) {
  const s = await createSession(g.p.deps, {
    seats: 20,
    realName: o.realName,
    refundRules: FREE_REFUNDS,
  });
  await g.assign(s.showId);
  await transfersOf(g.p.deps).saveSettings(
    who,
    s.showId,
    { enabled: o.enabled ?? true, cutoffMinutes: o.cutoffMinutes ?? 120, onceOnly: o.onceOnly ?? true },
    g.p.clock.now(),
  );
  return s;
}

const scan = (s: SessionFixture, t: HeldTicket) =>
  call('POST', '/api/v1/checkin', g.staffToken, { qr: g.code(t), gate: 'A1', sessionId: s.sessionId });
const offer = (t: HeldTicket) => call('POST', `/api/v1/tickets/${t.ticketId}/transfer`, t.token);
const accept = (token: string, code: string, body: object = {}) =>
  call('POST', `/api/v1/transfers/${code}/accept`, token, body);
const wallet = async (token: string) =>
  (await call('GET', '/api/v1/tickets', token)).body.items as {
    ticketId: string;
    status: string;
    received?: boolean;
    transferable?: boolean;
    transferOffer?: { code: string };
    attendee?: { name: string; idMasked: string };
  }[];
const ticketRow = async (no: string) => (await rows('SELECT * FROM tickets WHERE ticket_no = ?', [no]))[0]!;

/** The receiver's ticket, bound to a new phone of theirs (as the wallet does). */
async function bindReceived(token: string, ticketId: string, base: HeldTicket): Promise<HeldTicket> {
  const device = newDevice();
  const b = await g.bind(token, ticketId, device);
  expect(b.status).toBe(200);
  return { ...base, ticketId, token, device, binding: b.body.binding, bindingId: b.body.bindingId };
}

it('offer, accept: the old ticket is dead at the gate, the receiver holds a new one on the same seat', async () => {
  const s = await session();
  const [t, kept] = await g.tickets(s, 2);
  const receiver = await g.p.login('openid-transfer-receiver-1');

  const o = await offer(t!);
  expect(o.status).toBe(200);
  expect(o.body).toMatchObject({ ticketId: t!.ticketId, state: 'open' });
  expect(o.body.code).toMatch(/^[\w-]{43}$/);
  // Asked again while open: the same offer and code (a retry), nothing new.
  expect((await offer(t!)).body).toEqual(o.body);
  // The code is never stored, only its keyed hash.
  const stored = (await rows('SELECT * FROM ticket_transfers WHERE id = ?', [o.body.transferId]))[0]!;
  expect(JSON.stringify(stored)).not.toContain(o.body.code);

  // While the offer is open: no entry, no refund.
  expect((await scan(s, t!)).body.result).toBe('refunded');
  const refund = await call('POST', `/api/v1/orders/${t!.orderNo}/refund`, t!.token, {
    ticketIds: [t!.ticketId],
  });
  expect(refund.status).toBe(409);
  expect(refund.body.error.code).toBe('TICKET_TRANSFERRING');
  const mine = (await wallet(t!.token)).find((x) => x.ticketId === t!.ticketId)!;
  expect(mine).toMatchObject({ status: 'transferring', transferOffer: { code: o.body.code } });

  // The receiver's preview, then self-acceptance refused.
  const preview = await call('GET', `/api/v1/transfers/${o.body.code}`, receiver.token);
  expect(preview.body).toMatchObject({ state: 'open', mine: false, realName: false, priceFen: 68_000 });
  expect((await accept(t!.token, o.body.code)).body.error.code).toBe('TRANSFER_SELF');

  const a = await accept(receiver.token, o.body.code);
  expect(a.status).toBe(200);
  expect(a.body.ticketId).not.toBe(t!.ticketId);
  // Idempotent for the receiver; the used code is refused to anyone else.
  expect((await accept(receiver.token, o.body.code)).body).toEqual(a.body);
  const third = await g.p.login('openid-transfer-third-1');
  expect((await accept(third.token, o.body.code)).body.error.code).toBe('TRANSFER_CODE_INVALID');

  const oldRow = await ticketRow(t!.ticketId);
  const newRow = await ticketRow(a.body.ticketId);
  expect(oldRow.status).toBe(4);
  expect(newRow).toMatchObject({ status: 1, order_item_id: oldRow.order_item_id, seat_id: oldRow.seat_id });
  expect(String(newRow.user_id)).toBe(String(receiver.userId));
  expect(newRow.secret).not.toBe(oldRow.secret);
  expect(String(newRow.transferred_from)).toBe(String(oldRow.id));
  const audit = (await rows('SELECT * FROM ticket_transfers WHERE id = ?', [o.body.transferId]))[0]!;
  expect(audit).toMatchObject({ state: 'accepted', new_ticket_id: newRow.id });
  expect(String(audit.receiver_user_id)).toBe(String(receiver.userId));
  expect(audit.closed_at).toBeInstanceOf(Date);

  // The old phone's code is refused, the receiver's new phone admitted; the other ticket untouched.
  expect((await scan(s, t!)).body.result).toBe('refunded');
  const got = await bindReceived(receiver.token, a.body.ticketId, t!);
  expect((await scan(s, got)).body.result).toBe('admitted');
  expect((await scan(s, kept!)).body.result).toBe('admitted');
  expect((await wallet(receiver.token))[0]).toMatchObject({
    status: 'valid',
    received: true,
    transferable: false,
  });
  expect((await wallet(t!.token)).find((x) => x.ticketId === t!.ticketId)!.status).toBe('transferred');

  // Offline: the old ticket is revoked in the bundle, the new one listed.
  const bundle = await g.bundle(s.sessionId);
  expect(Object.keys(bundle.tickets)).toHaveLength(2);
  expect(bundle.revoked).toHaveLength(1);
});

it('refunds: a transferred ticket is not refundable; the giver refunds the others ticket by ticket', async () => {
  const s = await session({ onceOnly: true });
  const [t, other] = await g.tickets(s, 2);
  const receiver = await g.p.login('openid-transfer-receiver-2');
  const o = await offer(t!);
  const a = await accept(receiver.token, o.body.code);
  expect(a.status).toBe(200);

  // The giver's order still names their own (dead) ticket, marked transferred.
  const view = (await call('GET', `/api/v1/orders/${t!.orderNo}`, t!.token)).body;
  const marks = view.items.map((i: { ticketId: string; transferred?: boolean }) => [
    i.ticketId,
    i.transferred,
  ]);
  expect(marks).toEqual([
    [t!.ticketId, true],
    [other!.ticketId, undefined],
  ]);
  const one = await call('POST', `/api/v1/orders/${t!.orderNo}/refund`, t!.token, {
    ticketIds: [t!.ticketId],
  });
  expect(one.body.error.code).toBe('TICKET_TRANSFERRED');
  const whole = await call('POST', `/api/v1/orders/${t!.orderNo}/refund`, t!.token, {});
  expect(whole.body.error.code).toBe('TICKET_TRANSFERRED');
  expect(
    await rows('SELECT id FROM refunds WHERE order_id = ?', [(await ticketRow(t!.ticketId)).order_id]),
  ).toHaveLength(0);
  const ok = await call('POST', `/api/v1/orders/${t!.orderNo}/refund`, t!.token, {
    ticketIds: [other!.ticketId],
  });
  expect(ok.status).toBe(200);
  expect(ok.body.refund.amountFen).toBe(68_000);
  // The receiver does not own the order: nothing to refund there.
  const theirs = await call('POST', `/api/v1/orders/${t!.orderNo}/refund`, receiver.token, {});
  expect(theirs.status).toBe(404);
  // Once only: the received ticket cannot be passed on.
  const again = await call('POST', `/api/v1/tickets/${a.body.ticketId}/transfer`, receiver.token);
  expect(again.body.error.code).toBe('TRANSFER_ONCE');
  // A ticket in a refund cannot be offered.
  const refunding = await offer(other!);
  expect(refunding.body.error.code).toBe('TICKET_NOT_TRANSFERABLE');
});

it('cancel and refusals: disabled show, checked-in ticket, giver cancels (VALID again, code dead)', async () => {
  const off = await session({ enabled: false });
  const [x] = await g.tickets(off, 1);
  expect((await offer(x!)).body.error.code).toBe('TRANSFER_DISABLED');

  const s = await session();
  const [t, entered] = await g.tickets(s, 2);
  expect((await scan(s, entered!)).body.result).toBe('admitted');
  expect((await offer(entered!)).body.error.code).toBe('TICKET_NOT_TRANSFERABLE');

  const o = await offer(t!);
  const c = await call('DELETE', `/api/v1/tickets/${t!.ticketId}/transfer`, t!.token);
  expect(c.body).toEqual({ ticketId: t!.ticketId, cancelled: true });
  expect((await call('DELETE', `/api/v1/tickets/${t!.ticketId}/transfer`, t!.token)).body.cancelled).toBe(
    false,
  );
  // An offer whose ticket left TRANSFERRING behind its back (a session cancel's refund held it and
  // WeChat closed that refund): offering again closes it and makes a new code.
  const stale = await offer(t!);
  await rows('UPDATE tickets SET status = 1 WHERE ticket_no = ?', [t!.ticketId]);
  const fresh = await offer(t!);
  expect(fresh.body.transferId).not.toBe(stale.body.transferId);
  expect(
    (await rows('SELECT state FROM ticket_transfers WHERE id = ?', [stale.body.transferId]))[0]!.state,
  ).toBe('expired');
  expect((await call('DELETE', `/api/v1/tickets/${t!.ticketId}/transfer`, t!.token)).body.cancelled).toBe(
    true,
  );
  const receiver = await g.p.login('openid-transfer-receiver-3');
  expect((await accept(receiver.token, o.body.code)).body.error.code).toBe('TRANSFER_CODE_INVALID');
  expect((await accept(receiver.token, 'x'.repeat(43))).body.error.code).toBe('TRANSFER_CODE_INVALID');
  expect((await accept(receiver.token, 'short')).status).toBe(404);
  expect((await scan(s, t!)).body.result).toBe('admitted');
  // Someone else's ticket: not found, nothing changed.
  expect((await call('POST', `/api/v1/tickets/${t!.ticketId}/transfer`, receiver.token)).status).toBe(404);
});

it('cutoff: no offer after it; an open offer expires at it (the sweeper) and the ticket is valid again', async () => {
  // Sessions start 30 days from now: a cutoff of 30 days minus one hour closes offers in an hour.
  const s = await session({ cutoffMinutes: 30 * DAY_MIN - 60 });
  const [t, late] = await g.tickets(s, 2);
  const o = await offer(t!);
  expect(o.status).toBe(200);
  expect(await transfersOf(g.p.deps).expireDue(g.p.clock.now())).toBe(0);
  g.p.clock.advance(61 * 60_000);
  const receiver = await g.p.login('openid-transfer-receiver-4');
  // Past the cutoff, before the sweeper: refused all the same.
  expect((await accept(receiver.token, o.body.code)).body.error.code).toBe('TRANSFER_CLOSED');
  expect((await offer(late!)).body.error.code).toBe('TRANSFER_CLOSED');
  expect(await transfersOf(g.p.deps).expireDue(g.p.clock.now())).toBeGreaterThanOrEqual(1);
  expect((await ticketRow(t!.ticketId)).status).toBe(1);
  expect((await accept(receiver.token, o.body.code)).body.error.code).toBe('TRANSFER_CODE_INVALID');
  expect((await scan(s, t!)).body.result).toBe('admitted');
  // Back to the real time: WeChat Pay (the simulator) checks request timestamps against it.
  g.p.clock.advance(-61 * 60_000);
});

it('real-name: re-bound to the receiver’s ID; an ID that already holds a ticket of the session is refused', async () => {
  const s = await session({ realName: true });
  const [giverId, holderId, newId] = [idNumber(101), idNumber(202), idNumber(303)];
  const [t] = await g.tickets(s, 1, [{ name: '张三', idNumber: giverId }]);
  await g.tickets(s, 1, [{ name: '李四', idNumber: holderId }]);
  const receiver = await g.p.login('openid-transfer-receiver-5');
  const o = await offer(t!);

  expect((await accept(receiver.token, o.body.code)).body.error.code).toBe('VALIDATION_FAILED');
  const taken = await accept(receiver.token, o.body.code, {
    attendee: { name: '李四', idType: 'id_card', idNumber: holderId },
  });
  expect(taken.body.error.code).toBe('ID_TAKEN');
  expect((await ticketRow(t!.ticketId)).status).toBe(5); // nothing changed: still on offer
  const orderId = (await ticketRow(t!.ticketId)).order_id;
  const claims = () => rows('SELECT id_hash FROM attendee_claims WHERE order_id = ?', [orderId]);
  const before = await claims();
  expect(before).toHaveLength(1);

  const saved = await call('POST', '/api/v1/me/attendees', receiver.token, {
    name: '王五',
    idType: 'id_card',
    idNumber: newId,
  });
  const a = await accept(receiver.token, o.body.code, { savedAttendeeId: saved.body.id });
  expect(a.status).toBe(200);
  const after = await claims();
  expect(after).toHaveLength(1);
  expect(after[0]!.id_hash).not.toBe(before[0]!.id_hash);
  const mine = (await wallet(receiver.token))[0]!;
  expect(mine.attendee).toMatchObject({ name: '王*', idMasked: expect.stringMatching(/3030$/) });
  const audit = (await rows('SELECT * FROM ticket_transfers WHERE id = ?', [o.body.transferId]))[0]!;
  expect(audit.from_name_masked).toBe('张*');
  expect(audit.to_name_masked).toBe('王*');
  // The giver's ID is free again in MySQL: one ID one ticket still holds (no other claim on it).
  expect(
    await rows('SELECT 1 FROM attendee_claims WHERE session_id = ? AND id_hash = ?', [
      s.sessionId,
      before[0]!.id_hash,
    ]),
  ).toHaveLength(0);
  const got = await bindReceived(receiver.token, a.body.ticketId, t!);
  expect((await scan(s, got)).body).toMatchObject({ result: 'admitted', attendee: { name: '王*' } });

  // The Redis gate follows (moveAttendee), and a rebuild from MySQL agrees.
  const ids = () => g.p.deps.redis.hgetall(g.p.deps.keys.session(s.sessionId).ids);
  const gateSees = async () => {
    const h = await ids();
    expect(h[after[0]!.id_hash]).toBe(String(orderId));
    expect(h[before[0]!.id_hash]).toBeUndefined();
  };
  await gateSees();
  await g.p.deps.inventory.rebuild(s.sessionId, g.p.clock.now().getTime());
  await gateSees();
  // The giver's ID may hold a ticket of the session again; the receiver's may not buy a second.
  await g.tickets(s, 1, [{ name: '张三', idNumber: giverId }]);
  const second = await g.p
    .orderAndPrepay('openid-transfer-second-id', {
      sessionId: s.sessionId,
      seatIds: [s.seatIds[19]],
      attendees: [{ name: '王五', idType: 'id_card', idNumber: newId }],
    })
    .catch((e: Error) => e.message);
  expect(second).toMatch(/ID_TAKEN/);
});

it('two receivers accept the same code at once: exactly one wins', async () => {
  const s = await session();
  const [t] = await g.tickets(s, 1);
  const o = await offer(t!);
  const fans = await Promise.all([1, 2, 3, 4].map((i) => g.p.login(`openid-transfer-race-${i}`)));
  const answers = await Promise.all(fans.map((f) => accept(f.token, o.body.code)));
  expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
  expect(answers.filter((r) => r.status === 404).map((r) => r.body.error.code)).toEqual([
    'TRANSFER_CODE_INVALID',
    'TRANSFER_CODE_INVALID',
    'TRANSFER_CODE_INVALID',
  ]);
  const item = (await ticketRow(t!.ticketId)).order_item_id;
  const ofItem = await rows('SELECT status FROM tickets WHERE order_item_id = ? ORDER BY id', [item]);
  expect(ofItem.map((r) => r.status)).toEqual([4, 1]);
});

it('session cancel: the original payer is refunded in full, the receiver’s ticket voided, an open offer held', async () => {
  const s = await session();
  const [t, offered] = await g.tickets(s, 2);
  const receiver = await g.p.login('openid-transfer-receiver-7');
  const a = await accept(receiver.token, (await offer(t!)).body.code);
  expect(a.status).toBe(200);
  const open = await offer(offered!);

  await sessionChangesOf(g.p.deps).cancel(who, s.sessionId, { reason: '场馆原因' }, g.p.clock.now());
  expect((await ticketRow(offered!.ticketId)).status).toBe(3); // held for the refund
  expect((await accept(receiver.token, open.body.code)).body.error.code).toBe('TRANSFER_CLOSED');
  const svc = sessionChangesOf(g.p.deps);
  await g.p.until(
    async () => {
      await svc.run(g.p.clock.now());
      await resendStuckRefunds(g.p.deps, new Date(g.p.clock.now().getTime() + 7 * 3_600_000), 0);
      await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0);
      return (await ticketRow(a.body.ticketId)).status === 2;
    },
    'the cancel refund to void the receiver’s ticket',
    30_000,
  );
  const order = (
    await rows('SELECT id, amount_fen, user_id FROM orders WHERE order_no = ?', [t!.orderNo])
  )[0]!;
  const pay = (
    await rows('SELECT amount_fen, refunded_fen FROM payments WHERE order_id = ?', [order.id])
  )[0]!;
  expect(pay.refunded_fen).toBe(order.amount_fen); // all of it, to the giver's payment
  expect(g.p.sim.refunds().filter((r) => r.out_trade_no === t!.orderNo)).toHaveLength(1);
  expect((await ticketRow(t!.ticketId)).status).toBe(4);
  expect((await ticketRow(offered!.ticketId)).status).toBe(2);
});

it('exchange (改签): the giver can exchange neither the ticket given away nor the receiver’s new one', async () => {
  const s = await session();
  await g.p.deps.db.query('UPDATE shows SET exchange_allowed = 1, exchange_cutoff_minutes = 0 WHERE id = ?', [
    s.showId,
  ]);
  g.p.deps.catalog.forget(s.sessionId);
  const [t] = await g.tickets(s, 1);
  const receiver = await g.p.login('openid-transfer-receiver-exchange');
  const a = await accept(receiver.token, (await offer(t!)).body.code);
  expect(a.status).toBe(200);
  const free = s.seatIds.filter((id) => id !== s.seatIds[0]).slice(-1);
  const exchange = (ticketId: string) =>
    call('POST', `/api/v1/orders/${t!.orderNo}/exchange`, t!.token, {
      ticketIds: [ticketId],
      sessionId: s.sessionId,
      seatIds: free,
    });
  // The receiver's ticket sits on the giver's order item, but it is not the giver's.
  expect((await exchange(a.body.ticketId)).body.error.code).toBe('NOT_FOUND');
  expect((await exchange(t!.ticketId)).body.error.code).toBe('EXCHANGE_TICKET_INVALID');
  expect((await ticketRow(a.body.ticketId)).status).toBe(1); // the receiver's ticket stays valid
  expect(
    await rows('SELECT id FROM exchanges WHERE original_order_id = ?', [
      (await ticketRow(t!.ticketId)).order_id,
    ]),
  ).toHaveLength(0);
});
