import type { RowDataPacket } from 'mysql2/promise';
import { expireDueOrders } from '../../src/orders/expiry';
import { formatSql } from '../../src/db/sql';
import { createTestEnv, type TestEnv } from './env';
import { createSession, createUsers, purchase } from './fixtures';

/**
 * Every stored time is UTC whatever TZ the process has. Run by one file per time zone (the
 * environment sets TZ before the modules load); `expectedOffsetMin` proves the zone took effect.
 */
export function timeZoneSuite(timeZone: string, expectedOffsetMin: number): void {
  let env: TestEnv;
  beforeAll(async () => (env = await createTestEnv()));
  afterAll(() => env?.close());

  it(`runs under ${timeZone}`, () => {
    expect(process.env.TZ).toBe(timeZone);
    expect(new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset()).toBe(expectedOffsetMin);
  });

  it('renders dates inlined into SQL in UTC', () => {
    expect(formatSql('SELECT ?', [new Date(Date.UTC(2026, 0, 15, 1, 2, 3, 4))])).toBe(
      "SELECT '2026-01-15 01:02:03.004'",
    );
  });

  it('stores an order created through the group-commit writer with UTC times, and expires it on time', async () => {
    const s = await createSession(env.deps, { seats: 4, holdMinutes: 10 });
    const [u] = await createUsers(env.deps, 1);
    const created = env.clock.now().getTime();
    const o = await purchase(env, u!, { sessionId: s.sessionId, seatIds: s.seatIds.slice(0, 2) });
    expect(Date.parse(o.expireAt)).toBe(created + 10 * 60_000);

    // What MySQL itself holds (the session's time_zone is +00:00), and what the pool reads back.
    const [rows] = await env.deps.db.query<RowDataPacket[]>(
      `SELECT expire_at, created_at, DATE_FORMAT(expire_at, '%Y-%m-%dT%H:%i:%s.%fZ') AS raw_expire
         FROM orders WHERE order_no = ?`,
      [o.orderNo],
    );
    expect(rows[0]!.created_at.getTime()).toBe(created);
    expect(rows[0]!.expire_at.getTime()).toBe(created + 10 * 60_000);
    expect(Date.parse(rows[0]!.raw_expire.replace(/(\.\d{3})\d*Z$/, '$1Z'))).toBe(created + 10 * 60_000);

    const deps = { ...env.deps, orphanGraceMs: 60_000 };
    env.clock.advance(10 * 60_000 - 1);
    expect(await expireDueOrders(deps, env.clock.now())).toBe(0);
    env.clock.advance(1);
    expect(await expireDueOrders(deps, env.clock.now())).toBe(1);
    expect(await env.deps.inventory.availability(s.sessionId)).toBe(4);
  });
}
