import type { RowDataPacket } from 'mysql2/promise';
import { maskIdNumber, type WaitlistEntry } from '@showtix/shared-types';
import { expireDueOrders } from '../src/orders/expiry';
import { AdmissionTokens } from '../src/queue/tokens';
import { audit } from './helpers/auditor';
import { createSession, createUsers, purchase, type SessionOptions } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

/**
 * The waiting list (候补) on real-name sessions (issue 16): an entry names its attendees, one per
 * unit; one ID, one ticket holds across tickets, pending orders and the line; the offer's order
 * carries the attendees, so paying it issues tickets bound to them; an offer whose attendee got a
 * ticket meanwhile passes on to the next fan, and an unpaid one gives the IDs back.
 */
let p: PayEnv;
beforeAll(async () => {
  p = await createPayEnv();
});
afterAll(() => p.close());

type Row = RowDataPacket & Record<string, any>;
const rows = async (sql: string, params: unknown[]) => (await p.deps.db.query<Row[]>(sql, params))[0];
const now = () => p.clock.now();
const OFFER_MS = 15 * 60_000;

/** A valid mainland ID card number (GB 11643 check character) for each n. */
function idCard(n: number): string {
  const body = `11010519900101${String(n).padStart(3, '0')}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((s, c, i) => s + Number(c) * weights[i]!, 0);
  return body + '10X98765432'[sum % 11]!;
}
const person = (n: number, name = `观众${n}`) => ({ name, idType: 'id_card' as const, idNumber: idCard(n) });

async function fans(n: number) {
  const ids = await createUsers(p.deps, n, 'rnwl');
  return Promise.all(ids.map(async (id) => ({ id, token: await p.api.tokenFor(id) })));
}

function join(fan: { token: string }, sessionId: string, body: Record<string, unknown>) {
  return p.api.call<any>('POST', `/api/v1/sessions/${sessionId}/waitlist`, { token: fan.token, body });
}

async function entryOf(fan: { token: string }, id: string): Promise<WaitlistEntry> {
  const r = await p.api.call<{ items: WaitlistEntry[] }>('GET', '/api/v1/me/waitlist', { token: fan.token });
  return r.body.items.find((e) => e.id === id)!;
}

/** A real-name session whose seats a holder has in one pending order, naming `held` IDs. */
async function soldOut(held: number[], o: SessionOptions = {}) {
  const s = await createSession(p.deps, { seats: held.length, realName: true, ...o });
  const [holder] = await fans(1);
  const seatIds = s.seatIds.slice(0, held.length);
  const order = await purchase(p, holder!.id, {
    sessionId: s.sessionId,
    seatIds,
    attendees: held.map((n) => person(n)),
  });
  return { s, holder: holder!, order };
}

const cancel = async (userId: string, orderNo: string) =>
  p.api.call('POST', `/api/v1/orders/${orderNo}/cancel`, { token: await p.api.tokenFor(userId) });

describe('joining a real-name line', () => {
  it('names one attendee per unit; an ID holding a ticket, an order or a place in line is refused', async () => {
    const { s } = await soldOut([1, 2]);
    const tierId = s.tierIds[0]!;
    const [f, g] = await fans(2);
    // the old refusal is gone; the attendees are asked for as a purchase asks for them
    const none = await join(f!, s.sessionId, { tierId, quantity: 1 });
    expect([none.status, none.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const short = await join(f!, s.sessionId, { tierId, quantity: 2, attendees: [person(3)] });
    expect(short.body.error.code).toBe('VALIDATION_FAILED');
    const twice = await join(f!, s.sessionId, { tierId, quantity: 2, attendees: [person(3), person(3)] });
    expect(twice.body.error.code).toBe('VALIDATION_FAILED');
    const bad = { name: '王五', idType: 'id_card', idNumber: '110105194912310021' };
    expect((await join(f!, s.sessionId, { tierId, quantity: 1, attendees: [bad] })).status).toBe(400);

    // ID 2 is the holder's pending order's attendee: one ID, one ticket
    const held = await join(f!, s.sessionId, { tierId, quantity: 2, attendees: [person(3), person(2)] });
    expect([held.status, held.body.error.code]).toEqual([409, 'ID_TAKEN']);
    expect(held.body.error.details).toEqual({ idMasked: maskIdNumber(idCard(2)) });
    expect(await rows('SELECT id FROM waitlist_entries WHERE session_id = ?', [s.sessionId])).toHaveLength(0);
    expect(await rows('SELECT entry_id FROM waitlist_attendees WHERE session_id = ?', [s.sessionId])).toEqual(
      [],
    );

    const ok = await join(f!, s.sessionId, {
      tierId,
      quantity: 2,
      attendees: [person(3, '张三'), person(4)],
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ state: 'waiting', quantity: 2, endReason: null });
    expect(ok.body.attendees).toEqual([
      { name: '张*', idMasked: expect.stringMatching(/^110\*+\d{3}[\dX]$/) },
      { name: expect.stringContaining('*'), idMasked: expect.any(String) },
    ]);
    // ID 3 waits in f's entry: g cannot name it, f cannot name it again in another tier's line
    const inLine = await join(g!, s.sessionId, { tierId, quantity: 1, attendees: [person(3)] });
    expect([inLine.status, inLine.body.error.code]).toEqual([409, 'ID_TAKEN']);
    expect(inLine.body.error.message).toContain('候补');

    // f leaves: ID 3 is free for the line again
    expect(
      (await p.api.call('DELETE', `/api/v1/waitlist/${ok.body.id}`, { token: f!.token })).body.state,
    ).toBe('left');
    expect((await join(g!, s.sessionId, { tierId, quantity: 1, attendees: [person(3)] })).status).toBe(201);
    expect(await audit(p.deps, s.sessionId, now().getTime())).toEqual([]);
  });
});

describe("the purchase's fairness rules at the join", () => {
  it('a real-name waiting room: the entry must name the ID that queued; a blocked ID cannot join', async () => {
    const { s } = await soldOut([41]);
    await p.deps.db.query('UPDATE show_sessions SET queue_enabled = 1 WHERE id = ?', [s.sessionId]);
    p.deps.catalog.forget(s.sessionId);
    const [f] = await fans(1);
    const queued = p.deps.vault.idHash(idCard(42));
    // the waiting room's record of the ID this fan queued with (queue/service.ts writes it on join)
    await p.deps.redis.hset(p.deps.keys.session(s.sessionId).queue.ids, queued, f!.id);
    const tokens = new AdmissionTokens(p.config.authSecret);
    const admissionToken = tokens.issue(s.sessionId, f!.id, 1, now().getTime() + 60_000);
    const body = (n: number) => ({
      tierId: s.tierIds[0],
      quantity: 1,
      admissionToken,
      attendees: [person(n)],
    });

    const other = await join(f!, s.sessionId, body(43));
    expect([other.status, other.body.error.code]).toEqual([403, 'QUEUE_ID_NOT_ATTENDEE']);
    await p.deps.db.query("INSERT INTO blocklist (kind, value) VALUES ('id', ?)", [queued]);
    p.deps.risk.invalidateBlocklist();
    const blocked = await join(f!, s.sessionId, body(42));
    expect([blocked.status, blocked.body.error.code]).toEqual([403, 'BLOCKED']);
    await p.deps.db.query("DELETE FROM blocklist WHERE kind = 'id' AND value = ?", [queued]);
    p.deps.risk.invalidateBlocklist();
    expect((await join(f!, s.sessionId, body(42))).status).toBe(201);
  });
});

describe('offers on a real-name session', () => {
  it('the offer carries the attendees; paying it issues tickets bound to them', async () => {
    const { s, holder, order } = await soldOut([11]);
    const [f] = await fans(1);
    const joined = await join(f!, s.sessionId, {
      tierId: s.tierIds[0],
      quantity: 1,
      attendees: [person(12, '李四')],
    });
    expect(joined.status).toBe(201);
    await cancel(holder.id, order.orderNo);
    const offered = await p.until(async () => {
      const e = await entryOf(f!, joined.body.id);
      return e.state === 'offered' && e;
    }, 'the offer');
    const o = await p.api.call('GET', `/api/v1/orders/${offered.orderNo}`, { token: f!.token });
    expect(o.body.items[0].attendee).toEqual({ name: '李*', idMasked: joined.body.attendees[0].idMasked });
    const claims = await rows(
      'SELECT ac.id_hash FROM attendee_claims ac JOIN orders o ON o.id = ac.order_id WHERE o.order_no = ?',
      [offered.orderNo],
    );
    expect(claims).toEqual([{ id_hash: p.deps.vault.idHash(idCard(12)) }]);

    const pay = await p.api.call('POST', `/api/v1/orders/${offered.orderNo}/pay`, { token: f!.token });
    expect(pay.status).toBe(200);
    p.sim.pay(pay.body.payParams);
    const tickets = await p.until(async () => {
      const r = await p.api.call('GET', '/api/v1/tickets', { token: f!.token });
      const mine = r.body.items.filter((t: { orderNo: string }) => t.orderNo === offered.orderNo);
      return mine.length === 1 && mine;
    }, 'the ticket of the offer');
    expect(tickets[0]).toMatchObject({
      status: 'valid',
      attendee: { name: '李*', idMasked: offered.attendees[0]!.idMasked },
    });
    await p.deps.waitlist.sweep(now());
    expect((await entryOf(f!, joined.body.id)).state).toBe('fulfilled');
    // the ticket now holds ID 12 (the line let go of it): joining again with it is refused as held
    const again = await join(f!, s.sessionId, { tierId: s.tierIds[0], quantity: 1, attendees: [person(12)] });
    expect(again.body.error).toMatchObject({
      code: 'ID_TAKEN',
      message: '该证件已持有本场次门票（一证一票）',
    });
    expect(await audit(p.deps, s.sessionId, now().getTime())).toEqual([]);
  });

  it.each([
    ['the gate', false],
    ["MySQL's claims (Redis lost the ID)", true],
  ])(
    'an offer whose attendee got a ticket meanwhile passes on; the entry ends with a reason (%s)',
    async (_by, lost) => {
      // VIP (1 seat) is held; 看台 (1 seat) is on sale
      const s = await createSession(p.deps, { seats: 2, vip: 1, realName: true });
      const [vipTier, standTier] = s.tierIds;
      const [holder, f, g, buyer] = await fans(4);
      const held = await purchase(p, holder!.id, {
        sessionId: s.sessionId,
        seatIds: [s.seatIds[0]!],
        attendees: [person(21)],
      });
      const ef = (await join(f!, s.sessionId, { tierId: vipTier, quantity: 1, attendees: [person(22)] }))
        .body;
      const eg = (await join(g!, s.sessionId, { tierId: vipTier, quantity: 1, attendees: [person(23)] }))
        .body;
      expect([ef.state, eg.state]).toEqual(['waiting', 'waiting']);
      // ID 22 gets a 看台 ticket meanwhile (a purchase does not look at the line)
      expect(standTier).toBeDefined();
      await purchase(p, buyer!.id, {
        sessionId: s.sessionId,
        seatIds: [s.seatIds[1]!],
        attendees: [person(22)],
      });
      // the MySQL backstop: the take script no longer knows ID 22 holds a ticket
      if (lost)
        await p.deps.redis.hdel(p.deps.keys.session(s.sessionId).ids, p.deps.vault.idHash(idCard(22)));

      await cancel(holder!.id, held.orderNo);
      await p.deps.waitlist.runNow(s.sessionId, now());
      expect(await entryOf(f!, ef.id)).toMatchObject({
        state: 'ended',
        endReason: 'attendee_taken',
        orderNo: null,
      });
      const toG = await entryOf(g!, eg.id);
      expect(toG.state).toBe('offered');
      const o = await p.api.call('GET', `/api/v1/orders/${toG.orderNo}`, { token: g!.token });
      expect(o.body.items.map((i: any) => i.seatId)).toEqual([s.seatIds[0]]);
      // f's entry no longer holds ID 22 in the line; the seat is held once
      expect(await rows('SELECT live FROM waitlist_attendees WHERE entry_id = ?', [ef.id])).toEqual([
        { live: null },
      ]);
      expect(
        await rows('SELECT order_id FROM seat_claims WHERE session_id = ? AND seat_id = ?', [
          s.sessionId,
          s.seatIds[0],
        ]),
      ).toHaveLength(1);
      expect(await audit(p.deps, s.sessionId, now().getTime())).toEqual([]);
    },
  );

  it('an unpaid offer lapses and gives its IDs back (the order and the line let go of them)', async () => {
    const { s, holder, order } = await soldOut([31]);
    const [f] = await fans(1);
    const ef = (await join(f!, s.sessionId, { tierId: s.tierIds[0], quantity: 1, attendees: [person(32)] }))
      .body;
    await cancel(holder.id, order.orderNo);
    await p.deps.waitlist.runNow(s.sessionId, now());
    const offered = await entryOf(f!, ef.id);
    expect(offered.state).toBe('offered');

    p.clock.advance(OFFER_MS);
    await expireDueOrders({ ...p.deps, orphanGraceMs: 60_000 }, now());
    await p.deps.waitlist.runNow(s.sessionId, now());
    expect((await entryOf(f!, ef.id)).state).toBe('lapsed');
    const hash = p.deps.vault.idHash(idCard(32));
    expect(
      await rows('SELECT order_id FROM attendee_claims WHERE session_id = ? AND id_hash = ?', [
        s.sessionId,
        hash,
      ]),
    ).toEqual([]);
    expect(await rows('SELECT live FROM waitlist_attendees WHERE entry_id = ?', [ef.id])).toEqual([
      { live: null },
    ]);
    // ID 32 may buy the returned seat now (the line is empty)
    const [other] = await fans(1);
    const bought = await purchase(p, other!.id, {
      sessionId: s.sessionId,
      seatIds: s.seatIds,
      attendees: [person(32)],
    });
    expect(bought.status).toBe('pending');
    expect(await audit(p.deps, s.sessionId, now().getTime())).toEqual([]);
  });
});
