import { createHash } from 'node:crypto';
import type { RowDataPacket } from 'mysql2/promise';
import { expireDue } from './helpers/expiry';
import { offerKey, STALE_OFFER_MS } from '../src/orders/offer';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, purchase } from './helpers/fixtures';
import { startTestServer, type TestServer } from './helpers/http';

/**
 * The waiting list's join order (候补, issue 16) when a fan's offer cannot be made right now: an
 * offer attempt whose MySQL write failed and whose Redis release was lost leaves the entry's key
 * behind, so each run answered "busy" for that fan and offered the units to the fans behind them
 * (the seeded run caught entries 67 and 68 offered while 8 entries ahead waited). Now the units
 * wait for the fan ahead, and a key past any write's time is forgotten and the offer made.
 */
let env: TestEnv;
let api: TestServer;
beforeAll(async () => {
  env = await createTestEnv();
  api = await startTestServer(env);
});
afterEach(() => jest.restoreAllMocks());
afterAll(async () => {
  await api.close();
  await env.close();
});

const now = () => env.clock.now();
const state = async (id: string) =>
  (await env.deps.db.query<RowDataPacket[]>('SELECT status FROM waitlist_entries WHERE id = ?', [id]))[0][0]!
    .status as number;
const WAITING = 1;
const OFFERED = 2;

it('a fan whose offer left a stale key is not passed over: the line waits, then the key is forgotten and they are offered first', async () => {
  const s = await createSession(env.deps, { seats: 3, purchaseLimit: 4 });
  const [holder, b, c] = await createUsers(env.deps, 3, 'wlf');
  await purchase(env, holder!, { sessionId: s.sessionId, seatIds: s.seatIds });
  const join = async (user: string) =>
    (
      await api.call<any>('POST', `/api/v1/sessions/${s.sessionId}/waitlist`, {
        token: await api.tokenFor(user),
        body: { tierId: s.tierIds[0], quantity: 1 },
      })
    ).body.id as string;
  const [eb, ec] = [await join(b!), await join(c!)];
  // The runs below are the sweep's own (no run kicked by the release in between).
  const kick = jest.spyOn(env.deps.waitlist, 'kick').mockImplementation(() => undefined);
  env.clock.advance(15 * 60_000);
  await expireDue(env);
  // What an offer run leaves when its order write fails and the release is lost: b's key booked
  // in Redis (a hold on the first seat), no order in MySQL.
  const key = offerKey(eb);
  const taken = await env.deps.inventory.lockSeats(
    {
      sessionId: s.sessionId,
      orderId: env.deps.orders.newOrderId(now().getTime()),
      userId: b!,
      nowMs: now().getTime(),
      holdUntilMs: now().getTime() + 30 * 60_000,
      limit: 4,
      idemField: `${b}:${key}`,
      requestHash: createHash('sha256').update(`offer|${key}`).digest('hex'),
      idHashes: [],
    },
    [s.seatIds[0]!],
  );
  expect(taken.kind).toBe('taken');

  // Two seats are free: they wait for b (before: b was passed over and c, who joined after b,
  // was offered one; b's offer was never made at all).
  await env.deps.waitlist.sweep(now());
  expect([await state(eb), await state(ec)]).toEqual([WAITING, WAITING]);
  // Past any write's time the stale key is forgotten: b is offered first.
  env.clock.advance(STALE_OFFER_MS + 1_000);
  await env.deps.waitlist.sweep(now());
  expect(await state(eb)).toBe(OFFERED);
  const orders = await env.deps.db.query<RowDataPacket[]>(
    'SELECT COUNT(*) n FROM orders WHERE user_id = ? AND idempotency_key = ?',
    [b, key],
  );
  expect(Number(orders[0][0]!.n)).toBe(1);
  expect(await state(ec)).toBe(OFFERED); // then c, with the seat left
  kick.mockRestore();
});
