import type { RowDataPacket } from 'mysql2/promise';
import type { WaitlistEntry } from '@showtix/shared-types';
import { expireDueOrders, type ExpiryDeps } from '../src/orders/expiry';
import { offerKey, placeHeldOrder } from '../src/orders/offer';
import { loadSessionCatalog } from '../src/catalog/repo';
import { AdmissionTokens } from '../src/queue/tokens';
import { audit } from './helpers/auditor';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, purchase } from './helpers/fixtures';
import { startTestServer, type TestServer } from './helpers/http';
import { until } from './helpers/until';

/**
 * The waiting list (候补) for returned tickets (issue 16): joining a sold-out tier's line within
 * the limits, returned units offered in join order as held pending orders, an unanswered offer
 * passing on, offers racing direct buyers through the one gate, and recovery after a crash.
 */
let env: TestEnv;
let api: TestServer;
beforeAll(async () => {
  env = await createTestEnv();
  api = await startTestServer(env);
});
afterAll(async () => {
  await api.close();
  await env.close();
});
// A test that fails midway must not leave its stand-ins (a stale catalog, a muted kick) to the next.
afterEach(() => jest.restoreAllMocks());

type Row = RowDataPacket & Record<string, any>;
const rows = async (sql: string, params: unknown[]) => (await env.deps.db.query<Row[]>(sql, params))[0];
const now = () => env.clock.now();
const expiry = (): ExpiryDeps => ({
  db: env.deps.db,
  orders: env.deps.orders,
  inventory: env.deps.inventory,
  log: env.deps.log,
  orphanGraceMs: 60_000,
});
const OFFER_MS = 15 * 60_000;

/** The expiry job's run (a deadlock between two orders it expires side by side is retried there). */
const expireDue = (): Promise<number> => expireDueOrders(expiry(), now());

async function fans(n: number) {
  const ids = await createUsers(env.deps, n, 'wl');
  return Promise.all(ids.map(async (id) => ({ id, token: await api.tokenFor(id) })));
}

function join(fan: { token: string }, sessionId: string, body: Record<string, unknown>) {
  return api.call<any>('POST', `/api/v1/sessions/${sessionId}/waitlist`, { token: fan.token, body });
}

async function entryOf(fan: { token: string }, id: string): Promise<WaitlistEntry> {
  const r = await api.call<{ items: WaitlistEntry[] }>('GET', '/api/v1/me/waitlist', { token: fan.token });
  return r.body.items.find((e) => e.id === id)!;
}

/** Live claims of a seat (the MySQL backstop: at most one). */
async function liveClaims(sessionId: string, seatId: string) {
  return rows('SELECT order_id FROM seat_claims WHERE session_id = ? AND seat_id = ?', [sessionId, seatId]);
}

/** A 2-seat session whose two seats a holder has in one pending order. */
async function soldOut(o: { seats?: number; purchaseLimit?: number } = {}) {
  const s = await createSession(env.deps, { seats: o.seats ?? 2, purchaseLimit: o.purchaseLimit ?? 4 });
  const [holder] = await fans(1);
  const order = await purchase(env, holder!.id, { sessionId: s.sessionId, seatIds: s.seatIds });
  return { s, holder: holder!, order };
}

describe('joining and leaving', () => {
  it('joins only a sold-out tier, within the per-user limit (held + waiting), once per tier; leaves', async () => {
    const s = await createSession(env.deps, { seats: 2, purchaseLimit: 2 });
    const tierId = s.tierIds[0]!;
    const [a, b, c] = await fans(3);
    // seats on sale: buy them instead
    expect((await join(b!, s.sessionId, { tierId, quantity: 1 })).body.error.code).toBe(
      'WAITLIST_NOT_SOLD_OUT',
    );
    await purchase(env, a!.id, { sessionId: s.sessionId, seatIds: s.seatIds });

    // hostile or bad input: clear errors, nothing written
    expect((await join(b!, s.sessionId, { tierId, quantity: 3 })).body.error.code).toBe('LIMIT_EXCEEDED');
    expect((await join(b!, s.sessionId, { tierId, quantity: 0 })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await join(b!, s.sessionId, { tierId: '999999999', quantity: 1 })).body.error.code).toBe(
      'VALIDATION_FAILED',
    );
    expect((await join(b!, s.sessionId, { tierId, quantity: 1, extra: 1 })).status).toBe(400);
    expect((await join({ token: '' }, s.sessionId, { tierId, quantity: 1 })).status).toBe(401);
    // the holder holds 2 of 2: waiting for one more would exceed the limit
    expect((await join(a!, s.sessionId, { tierId, quantity: 1 })).body.error.code).toBe('LIMIT_EXCEEDED');
    expect(await rows('SELECT id FROM waitlist_entries WHERE session_id = ?', [s.sessionId])).toHaveLength(0);

    const jb = await join(b!, s.sessionId, { tierId, quantity: 2 });
    expect(jb.status).toBe(201);
    expect(jb.body).toMatchObject({ state: 'waiting', quantity: 2, ahead: 0, orderNo: null });
    expect((await join(b!, s.sessionId, { tierId, quantity: 1 })).body.error.code).toBe('WAITLIST_EXISTS');
    const jc = await join(c!, s.sessionId, { tierId, quantity: 1 });
    expect(jc.body.ahead).toBe(1);

    // leave, and join again at the back
    const left = await api.call('DELETE', `/api/v1/waitlist/${jc.body.id}`, { token: c!.token });
    expect(left.body.state).toBe('left');
    expect((await api.call('DELETE', `/api/v1/waitlist/${jc.body.id}`, { token: b!.token })).status).toBe(
      404,
    );
    const again = await join(c!, s.sessionId, { tierId, quantity: 1 });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(jc.body.id);
    expect((await api.call('GET', '/api/v1/me/waitlist', { token: c!.token })).body.items).toHaveLength(2);

    // the admin's view: per tier
    const counts = await env.deps.waitlist.counts(s.sessionId);
    expect(counts.items).toEqual([
      expect.objectContaining({ tierId, waiting: 2, waitingUnits: 3, offered: 0 }),
    ]);
  });

  it('a waiting-room session: joining needs an admission, as buying does', async () => {
    const { s } = await soldOut({ seats: 1 });
    await env.deps.db.query('UPDATE show_sessions SET queue_enabled = 1 WHERE id = ?', [s.sessionId]);
    env.deps.catalog.forget(s.sessionId);
    const [f, other] = await fans(2);
    const body = { tierId: s.tierIds[0], quantity: 1 };
    const none = await join(f!, s.sessionId, body);
    expect([none.status, none.body.error.code]).toEqual([403, 'QUEUE_REQUIRED']);
    const tokens = new AdmissionTokens(env.config.authSecret);
    const othersToken = tokens.issue(s.sessionId, other!.id, 1, now().getTime() + 60_000);
    expect((await join(f!, s.sessionId, { ...body, admissionToken: othersToken })).body.error.code).toBe(
      'QUEUE_REQUIRED',
    );
    const admissionToken = tokens.issue(s.sessionId, f!.id, 2, now().getTime() + 60_000);
    expect((await join(f!, s.sessionId, { ...body, admissionToken })).status).toBe(201);
  });

  // Real-name sessions have their waiting list too: waitlist.realname.test.ts.
  it('a session not selling has no waiting list', async () => {
    const [f] = await fans(1);
    const p = await createSession(env.deps, { seats: 1, open: false });
    expect((await join(f!, p.sessionId, { tierId: p.tierIds[0], quantity: 1 })).body.error.code).toBe(
      'WAITLIST_UNAVAILABLE',
    );
  });
});

describe('offers', () => {
  it('an expired hold is offered to the first fan as a pending order, with a notice; direct buyers wait', async () => {
    const { s } = await soldOut();
    const [b, c, d] = await fans(3);
    const eb = (await join(b!, s.sessionId, { tierId: s.tierIds[0], quantity: 2 })).body;
    const ec = (await join(c!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;

    env.clock.advance(15 * 60_000);
    expect(await expireDue()).toBeGreaterThanOrEqual(1);
    // the release started an offer run (inventory.onFreed): the first fan's entry is offered
    const offered = await until(async () => {
      const e = await entryOf(b!, eb.id);
      return e.state === 'offered' && e;
    }, 'the offer');
    expect(offered.orderNo).toMatch(/^\d+$/);
    expect(new Date(offered.offerExpiresAt!).getTime()).toBe(now().getTime() + OFFER_MS);
    const o = await api.call('GET', `/api/v1/orders/${offered.orderNo}`, { token: b!.token });
    expect(o.body.status).toBe('pending');
    expect(o.body.items.map((i: any) => i.seatId).sort()).toEqual([...s.seatIds].sort());
    expect(
      await rows("SELECT payload FROM outbox WHERE topic = 'notice.send' AND aggregate_id = ?", [
        `wl-${eb.id}`,
      ]),
    ).toHaveLength(1);
    // the second fan still waits (nothing left); a direct buyer is told to join the list
    expect((await entryOf(c!, ec.id)).state).toBe('waiting');
    const direct = await api.call('POST', '/api/v1/orders', {
      token: d!.token,
      body: { sessionId: s.sessionId, seatIds: [s.seatIds[0]] },
    });
    expect(direct.body.error.code).toBe('WAITLIST_FIRST');
    expect(await audit(env.deps, s.sessionId, now().getTime())).toEqual([]);

    // paid: fulfilled at the next run
    await env.deps.db.query('UPDATE orders SET status = 2 WHERE order_no = ?', [offered.orderNo]);
    await env.deps.waitlist.sweep(now());
    expect((await entryOf(b!, eb.id)).state).toBe('fulfilled');
  });

  it('an unanswered offer lapses and passes on to the next fan; a declined one too', async () => {
    const { s } = await soldOut({ seats: 1 });
    const [b, c, d] = await fans(3);
    const eb = (await join(b!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    const ec = (await join(c!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    const ed = (await join(d!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    env.clock.advance(15 * 60_000);
    await expireDue();
    await env.deps.waitlist.runNow(s.sessionId, now());
    expect((await entryOf(b!, eb.id)).state).toBe('offered');

    const streak = jest.spyOn(env.deps.risk, 'onHoldExpired');
    env.clock.advance(OFFER_MS);
    await expireDue();
    await env.deps.waitlist.runNow(s.sessionId, now());
    expect((await entryOf(b!, eb.id)).state).toBe('lapsed');
    // an offer left to expire was never the fan's own hold: no step toward the hold cooldown
    expect(streak).not.toHaveBeenCalledWith(b!.id);
    streak.mockRestore();
    const toC = await entryOf(c!, ec.id);
    expect(toC.state).toBe('offered');

    // C declines: the order is cancelled and the seat goes to D
    const declined = await api.call('POST', `/api/v1/waitlist/${ec.id}/decline`, { token: c!.token });
    expect(declined.body.state).toBe('declined');
    const cOrder = await api.call('GET', `/api/v1/orders/${toC.orderNo}`, { token: c!.token });
    expect(cOrder.body.status).toBe('cancelled');
    await env.deps.waitlist.runNow(s.sessionId, now());
    expect((await entryOf(d!, ed.id)).state).toBe('offered');
    expect(await liveClaims(s.sessionId, s.seatIds[0]!)).toHaveLength(1);
    expect(await audit(env.deps, s.sessionId, now().getTime())).toEqual([]);
    // the line is empty now: the tier is no longer held back for it
    expect((await env.deps.catalog.requireSession(s.sessionId)).waitlistedTiers.size).toBe(0);
  });

  it('a general-admission tier: a unit that fits no one is kept for the line; a smaller request behind is served', async () => {
    const s = await createSession(env.deps, { zones: [{ name: 'GA', capacity: 2 }] });
    const [a1, a2, b, c] = await fans(4);
    const o1 = await purchase(env, a1!.id, { sessionId: s.sessionId, zoneId: s.zoneIds[0]!, quantity: 1 });
    await purchase(env, a2!.id, { sessionId: s.sessionId, zoneId: s.zoneIds[0]!, quantity: 1 });
    const eb = (await join(b!, s.sessionId, { tierId: s.tierIds[0], quantity: 2 })).body;
    const ec = (await join(c!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    await api.call('POST', `/api/v1/orders/${o1.orderNo}/cancel`, { token: await api.tokenFor(a1!.id) });
    await env.deps.waitlist.runNow(s.sessionId, now());
    expect((await entryOf(b!, eb.id)).state).toBe('waiting');
    expect((await entryOf(c!, ec.id)).state).toBe('offered');
    expect(await audit(env.deps, s.sessionId, now().getTime())).toEqual([]);
  });
});

/** Purchases see the session's catalog as it was before anyone joined its line. */
async function staleCatalog() {
  const real = env.deps.catalog.requireSession.bind(env.deps.catalog);
  return jest
    .spyOn(env.deps.catalog, 'requireSession')
    .mockImplementation(async (id) => ({ ...(await real(id)), waitlistedTiers: new Set<string>() }));
}

describe('races', () => {
  it('an offer and a direct buyer of the same returned seat: exactly one gets it, every time', async () => {
    const outcomes = { offer: 0, direct: 0 };
    for (let i = 0; i < 8; i++) {
      const { s } = await soldOut({ seats: 1 });
      const [b, d] = await fans(2);
      const eb = (await join(b!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
      // The buyer passed the WAITLIST_FIRST check before the fan joined (their instance's
      // catalog had no line yet), so only the gate stands between the two; and the release's own
      // offer run is held back, so the run below is the one racing.
      const stale = await staleCatalog();
      const kick = jest.spyOn(env.deps.waitlist, 'kick').mockImplementation(() => undefined);
      env.clock.advance(15 * 60_000);
      await expireDue();
      kick.mockRestore();
      // The buyer arrives 0, 6, 12, ... ms after the run starts: across the run's window.
      const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const [direct] = await Promise.all([
        later(i * 6).then(() =>
          purchase(env, d!.id, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] }).then(
            () => true,
            (err) => (expect(['SEAT_TAKEN', 'SOLD_OUT', 'WAITLIST_FIRST']).toContain(err.code), false),
          ),
        ),
        env.deps.waitlist.runNow(s.sessionId, now()),
      ]);
      stale.mockRestore();
      await env.deps.waitlist.runNow(s.sessionId, now());
      const e = await entryOf(b!, eb.id);
      expect(e.state).toBe(direct ? 'waiting' : 'offered');
      outcomes[direct ? 'direct' : 'offer']++;
      expect(await liveClaims(s.sessionId, s.seatIds[0]!)).toHaveLength(1);
      expect(await audit(env.deps, s.sessionId, now().getTime())).toEqual([]);
    }
    expect(outcomes.offer + outcomes.direct).toBe(8);
  });

  it('two offer runs at once (two instances) make one order per entry', async () => {
    const { s } = await soldOut({ seats: 2 });
    const [b, c] = await fans(2);
    const eb = (await join(b!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    const ec = (await join(c!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    const kick = jest.spyOn(env.deps.waitlist, 'kick').mockImplementation(() => undefined);
    env.clock.advance(15 * 60_000);
    await expireDue(); // no automatic run
    kick.mockRestore();
    const { runSession } = await import('../src/waitlist/offers');
    const d = env.deps.waitlist.d;
    await Promise.all([runSession(d, s.sessionId, now()), runSession(d, s.sessionId, now())]);
    await env.deps.waitlist.runNow(s.sessionId, now());
    expect((await entryOf(b!, eb.id)).state).toBe('offered');
    expect((await entryOf(c!, ec.id)).state).toBe('offered');
    const orders = await rows("SELECT id FROM orders WHERE session_id = ? AND idempotency_key LIKE 'wl/%'", [
      s.sessionId,
    ]);
    expect(orders).toHaveLength(2);
    expect(await audit(env.deps, s.sessionId, now().getTime())).toEqual([]);
  });
});

describe('recovery', () => {
  it('a crash between the release and the offer: the sweep offers the units; after a Redis loss the line still comes first', async () => {
    const { s } = await soldOut({ seats: 1 });
    const [b, d] = await fans(2);
    const eb = (await join(b!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    // Redis loses the session: the line is MySQL's, so it still comes first after the rebuild
    const k = env.deps.keys.session(s.sessionId);
    await env.deps.redis.del(k.meta, k.seats, k.users, k.orders, k.pending, k.idem, k.zslots, k.ids);
    await env.deps.inventory.rebuild(s.sessionId, now().getTime());

    // the release happens but its offer run never does (the process died)
    const kick = jest.spyOn(env.deps.waitlist, 'kick').mockImplementation(() => undefined);
    env.clock.advance(15 * 60_000);
    await expireDue();
    kick.mockRestore();
    expect((await entryOf(b!, eb.id)).state).toBe('waiting');
    // meanwhile the seat is not sold to anyone else
    await expect(
      purchase(env, d!.id, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] }),
    ).rejects.toMatchObject({
      code: 'WAITLIST_FIRST',
    });
    await env.deps.waitlist.sweep(now());
    expect((await entryOf(b!, eb.id)).state).toBe('offered');
    expect(await audit(env.deps, s.sessionId, now().getTime())).toEqual([]);
  });

  it("a crash between the offer's order and the entry's update: the rerun adopts that order, never a second", async () => {
    const { s } = await soldOut({ seats: 2 });
    const [b] = await fans(1);
    const eb = (await join(b!, s.sessionId, { tierId: s.tierIds[0], quantity: 1 })).body;
    const kick = jest.spyOn(env.deps.waitlist, 'kick').mockImplementation(() => undefined);
    env.clock.advance(15 * 60_000);
    await expireDue();
    kick.mockRestore();
    const cat = (await loadSessionCatalog(env.deps.db, s.sessionId))!;
    const placed = await placeHeldOrder(env.deps.waitlist.d.offer, {
      cat,
      userId: b!.id,
      units: { kind: 'seats', seatIds: [s.seatIds[1]!] },
      idempotencyKey: offerKey(eb.id),
      now: now(),
      expireAt: new Date(now().getTime() + OFFER_MS),
    });
    expect(placed.kind).toBe('placed');
    await env.deps.waitlist.sweep(now());
    const e = await entryOf(b!, eb.id);
    expect(e.state).toBe('offered');
    const [row] = await rows('SELECT order_id FROM waitlist_entries WHERE id = ?', [eb.id]);
    expect(String(row!.order_id)).toBe((placed as { orderId: string }).orderId);
    expect(await rows('SELECT id FROM orders WHERE user_id = ?', [b!.id])).toHaveLength(1);
    expect(await audit(env.deps, s.sessionId, now().getTime())).toEqual([]);
  });
});

it('a run asked for during another runs after it with its own time (offers stamped and held from the release, not from the first run)', async () => {
  const { s } = await soldOut();
  const [fan] = await fans(1);
  expect((await join(fan!, s.sessionId, { tierId: s.tierIds[0]!, quantity: 1 })).status).toBe(201);
  await env.deps.waitlist.runNow(s.sessionId, now()); // the join's own run, done
  // What each run reads its free units at: its own time.
  const spy = jest.spyOn(env.deps.inventory, 'states');
  const t0 = now();
  const t1 = new Date(t0.getTime() + 4_000); // a release's kick while the first run is under way
  await Promise.all([env.deps.waitlist.runNow(s.sessionId, t0), env.deps.waitlist.runNow(s.sessionId, t1)]);
  const runs = spy.mock.calls.filter((c) => c[0] === s.sessionId);
  expect(runs.map((c) => c[2])).toEqual([t0.getTime(), t1.getTime()]);
});
