import { sessionChangesOf } from '../../src/per-app';
import { assignStaff, createSession, createUsers, type SessionFixture } from '../helpers/fixtures';
import { boundTicket, claimComps, operatorSuite } from './helpers';

/**
 * A cancelled session's complimentary tickets (赠票, issue 16): no money, so never a refund, but
 * voided like the paid ones are refunded, and their holder told; one that already let its
 * holder in stays as it is. Before: held (inadmissible) forever, the holder never told.
 */
const t = operatorSuite();

/** Reserves the session's first `seats` seats; answers an issuer of comps on them to one person. */
async function compsFor(s: SessionFixture, seats: number, person: { name: string; phone: string }) {
  await t.op('POST', `/api/v1/admin/sessions/${s.sessionId}/reservations/seats`, {
    seatIds: s.seatIds.slice(0, seats),
  });
  return (key: string, seat: number) =>
    t.op('POST', `/api/v1/admin/sessions/${s.sessionId}/comps`, {
      ...person,
      idempotencyKey: key,
      seatIds: [s.seatIds[seat]],
    });
}

it('cancelling the session voids its comps (never a refund), tells the claimed holder once, leaves an admitted one', async () => {
  const { h, op, q } = t;
  const s = await createSession(h.env.deps, { seats: 40 });
  const [fan, staff] = await createUsers(h.env.deps, 2);
  await assignStaff(h.env.deps, staff!, s.showId);
  const issue = await compsFor(s, 3, { name: '周九', phone: '13700137000' });
  const [admitted, claimed, unclaimed] = [
    await issue('comp-cancel-0001', 0),
    await issue('comp-cancel-0002', 1),
    await issue('comp-cancel-0003', 2),
  ];
  const token = await h.api.tokenFor(fan!);
  const staffToken = await h.api.tokenFor(staff!, ['fan', 'staff']);
  const tickets = await claimComps(h, token, [admitted, claimed]);
  const scan = await boundTicket(h, token, staffToken, tickets.get(admitted.body.orderNo)!, s.sessionId);
  expect((await scan()).body.result).toBe('admitted');

  const cancel = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/cancel`, { reason: '场馆原因' });
  expect(cancel.status).toBe(200);
  const changes = sessionChangesOf(h.env.deps);
  await changes.run(h.env.clock.now());
  await changes.run(h.env.clock.now()); // a second pass changes nothing

  const state = async (orderId: string) => {
    const [o] = await q('SELECT status FROM orders WHERE id = ?', [orderId]);
    const t = await q('SELECT status FROM tickets WHERE order_id = ?', [orderId]);
    return { order: o!.status, tickets: t.map((x) => x.status) };
  };
  // Voided (order cancelled, tickets VOIDED), claimed or not; no payment, no refund.
  expect(await state(claimed.body.orderId)).toEqual({ order: 4, tickets: [2] });
  expect(await state(unclaimed.body.orderId)).toEqual({ order: 4, tickets: [2] });
  expect(
    await q('SELECT 1 FROM refunds WHERE order_id IN (?)', [[claimed.body.orderId, unclaimed.body.orderId]]),
  ).toHaveLength(0);
  // The admitted one let its holder in: it stays, and no ticket of the session admits again.
  expect((await state(admitted.body.orderId)).order).toBe(3);
  expect((await scan()).body.result).not.toBe('admitted');
  // The claimed holder is told once; nobody to tell for the unclaimed one.
  const notices = await q(
    "SELECT aggregate_id, payload FROM outbox WHERE topic = 'notice.send' AND aggregate_id LIKE ?",
    [`sc${cancel.body.id}-%`],
  );
  expect(notices.map((n) => n.aggregate_id)).toEqual([`sc${cancel.body.id}-${claimed.body.orderId}`]);
  expect(JSON.parse(notices[0]!.payload)).toMatchObject({ userId: fan, template: 'session_changed' });
  // The organiser's view: voided by the cancellation, in the comp list.
  const list = await op('GET', `/api/v1/admin/sessions/${s.sessionId}/comps`);
  const byId = new Map(list.body.items.map((c: { orderId: string; state: string }) => [c.orderId, c.state]));
  expect(byId.get(claimed.body.orderId)).toBe('voided');
  expect(byId.get(admitted.body.orderId)).toBe('claimed');
});

it('postponing the session tells a claimed comp holder the new date (nothing to refund); an unclaimed comp, nobody', async () => {
  const { h, op, q } = t;
  const s = await createSession(h.env.deps, { seats: 40 });
  const [fan] = await createUsers(h.env.deps, 1);
  const issue = await compsFor(s, 2, { name: '吴十', phone: '13600136000' });
  const [claimed, unclaimed] = [await issue('comp-postpone-1', 0), await issue('comp-postpone-2', 1)];
  const token = await h.api.tokenFor(fan!);
  await h.api.call('POST', '/api/v1/comps/claim', { token, body: { code: claimed.body.claimCode } });
  const at = h.env.clock.now().getTime();
  const p = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/postpone`, {
    startsAt: new Date(at + 60 * 86_400_000).toISOString(),
    refundUntil: new Date(at + 10 * 86_400_000).toISOString(),
    reason: '场馆调整',
  });
  expect(p.status).toBe(200);
  await sessionChangesOf(h.env.deps).run(h.env.clock.now());
  const told = await q(
    "SELECT aggregate_id FROM outbox WHERE topic = 'notice.send' AND aggregate_id LIKE ?",
    [`sc${p.body.id}-%`],
  );
  expect(told.map((n) => n.aggregate_id)).toEqual([`sc${p.body.id}-${claimed.body.orderId}`]);
  expect(unclaimed.status).toBe(201);
  // Still valid: a postponement moves the date, it voids nothing.
  const [o] = await q('SELECT status FROM orders WHERE id = ?', [claimed.body.orderId]);
  expect(o!.status).toBe(3);
});
