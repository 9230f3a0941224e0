import type { RowDataPacket } from 'mysql2/promise';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession } from './helpers/fixtures';

/**
 * The catalog cache's reload (every catalogCacheMs) keeps a session's seat map when its seats
 * did not change, and still sees any change to them, even one no invalidation announced.
 */
const CACHE_MS = 40;
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ CATALOG_CACHE_MS: String(CACHE_MS) });
});
afterAll(() => env.close());

/** The catalog after the cached one has expired. */
async function reloaded(sessionId: string) {
  await new Promise((r) => setTimeout(r, CACHE_MS + 20));
  return (await env.deps.catalog.session(sessionId))!;
}

async function vipTier(sessionId: string): Promise<string> {
  const [rows] = await env.deps.db.query<RowDataPacket[]>(
    "SELECT id FROM price_tiers WHERE session_id = ? AND name = 'VIP'",
    [sessionId],
  );
  return String(rows[0]!.id);
}

describe('catalog reload', () => {
  it('keeps the seat map of a session whose seats are unchanged', async () => {
    const s = await createSession(env.deps, { seats: 20, vip: 2 });
    const first = (await env.deps.catalog.session(s.sessionId))!;
    const second = await reloaded(s.sessionId);
    expect(second).not.toBe(first); // reloaded: session fields are read again
    expect(second.seats).toBe(first.seats);
    expect(second.seats.size).toBe(20);
  });

  it('reads the seats again when a seat changes tier, a price changes or a seat goes', async () => {
    const s = await createSession(env.deps, { seats: 20, vip: 2 });
    const seatId = s.seatIds[10]!;
    const before = (await env.deps.catalog.session(s.sessionId))!;
    expect(before.seats.get(seatId)!.priceFen).toBe(68_000);

    const vip = await vipTier(s.sessionId);
    await env.deps.db.query('UPDATE session_seats SET tier_id = ? WHERE session_id = ? AND seat_id = ?', [
      vip,
      s.sessionId,
      seatId,
    ]);
    const moved = await reloaded(s.sessionId);
    expect(moved.seats).not.toBe(before.seats);
    expect(moved.seats.get(seatId)).toMatchObject({ tierId: vip, priceFen: 188_000 });

    await env.deps.db.query('UPDATE price_tiers SET price_fen = 199900 WHERE id = ?', [vip]);
    const repriced = await reloaded(s.sessionId);
    expect(repriced.seats.get(seatId)!.priceFen).toBe(199_900);

    await env.deps.db.query('DELETE FROM session_seats WHERE session_id = ? AND seat_id = ?', [
      s.sessionId,
      s.seatIds[19],
    ]);
    const fewer = await reloaded(s.sessionId);
    expect(fewer.seats.size).toBe(19);
    expect(fewer.seats.has(s.seatIds[19]!)).toBe(false);
    expect((await reloaded(s.sessionId)).seats).toBe(fewer.seats);
  });
});
