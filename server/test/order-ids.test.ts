import type { RowDataPacket } from 'mysql2/promise';
import pino from 'pino';
import { closeDeps, createDeps } from '../src/wiring';
import { buildOrder, requestHash, resolveUnits } from '../src/orders/create';
import { IdNodeLease } from '../src/orders/id-lease';
import { IdGenerator } from '../src/orders/ids';
import { OrderService, type OrderServiceDeps } from '../src/orders/service';
import { WriteError } from '../src/orders/writer';
import { sleep } from '../src/inventory/service';
import { createTestEnv, deleteKeys, type TestEnv } from './helpers/env';
import { createSession, createUsers } from './helpers/fixtures';

let env: TestEnv;
beforeAll(async () => (env = await createTestEnv()));
afterAll(() => env.close());

const log = pino({ level: 'silent' });

async function ordersWithIds(ids: string[]): Promise<RowDataPacket[]> {
  const [rows] = await env.deps.db.query<RowDataPacket[]>(
    'SELECT id, order_no, user_id, session_id FROM orders WHERE id IN (?)',
    [ids],
  );
  return rows;
}

/** Marks every node but `except` as held far into the future (other instances all running). */
async function holdAllNodesBut(except: number[]): Promise<void> {
  await env.deps.db.query(
    `UPDATE id_nodes SET holder = CONCAT('other-', node), expires_at = '2999-01-01' WHERE node NOT IN (?)`,
    [except],
  );
}

async function freeAllNodesBut(except: number[]): Promise<void> {
  await env.deps.db.query(
    `UPDATE id_nodes SET holder = NULL, expires_at = '1970-01-01 00:00:01' WHERE node NOT IN (?)`,
    [except],
  );
}

describe('order ids', () => {
  it('differ between two instances started after a Redis loss, and both orders are in MySQL', async () => {
    // Redis loses everything (the design expects it), then a second instance starts.
    await deleteKeys(env.config.redisUrl, env.config.redisKeyPrefix);
    const other = await createDeps(env.config, { clock: env.clock, log });
    try {
      const [s1, s2] = [
        await createSession(env.deps, { seats: 2 }),
        await createSession(env.deps, { seats: 2 }),
      ];
      const [u1, u2] = await createUsers(env.deps, 2);
      const now = env.clock.now();
      const [a, b] = await Promise.all([
        env.deps.orders.create(u1!, { sessionId: s1!.sessionId, seatIds: [s1!.seatIds[0]!] }, undefined, now),
        other.orders.create(u2!, { sessionId: s2!.sessionId, seatIds: [s2!.seatIds[0]!] }, undefined, now),
      ]);
      expect(a.orderNo).not.toBe(b.orderNo);
      const rows = await ordersWithIds([a.orderNo.slice(6), b.orderNo.slice(6)]);
      expect(rows.map((r) => `${r.user_id}:${r.session_id}`).sort()).toEqual(
        [`${u1}:${s1!.sessionId}`, `${u2}:${s2!.sessionId}`].sort(),
      );
    } finally {
      await closeDeps(other);
    }
  });

  it('never hands a live node to a second instance, across 1,100 restarts of eight racing instances', async () => {
    const live = new Map<number, number>([[env.deps.idLease.current()!.node, -1]]);
    const clashes: string[] = [];
    const seen = new Set<number>();
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let i = 0; i < 138; i++) {
          const lease = await IdNodeLease.start(env.deps.db, log);
          const node = lease.current()!.node;
          if (live.has(node)) clashes.push(`node ${node}: ${worker} and ${live.get(node)}`);
          live.set(node, worker);
          seen.add(node);
          await sleep(1);
          live.delete(node);
          await lease.stop();
        }
      }),
    );
    expect(clashes).toEqual([]);
    expect(seen.size).toBeGreaterThan(1000); // freed nodes are reused only after the unused ones
  });

  it('frees the node of an instance that died only once its lease ran out; the new holder starts above its ids', async () => {
    const mine = env.deps.idLease.current()!.node;
    const dead = await IdNodeLease.start(env.deps.db, log, { leaseMs: 600, renewMs: 3_600_000 });
    const deadIds = new IdGenerator(dead);
    dead.track(deadIds);
    const node = dead.current()!.node;
    const issued = [deadIds.next(), deadIds.next()];
    await dead.renew(); // records the highest millisecond used, like every heartbeat
    issued.push(deadIds.next(Date.now() + 50)); // used after the last report
    await holdAllNodesBut([mine, node]);
    try {
      // While its lease runs, nobody may take the node: with all others held, nothing is free.
      await expect(IdNodeLease.start(env.deps.db, log)).rejects.toThrow(/no free order-id node/);
      await sleep(700);
      const next = await IdNodeLease.start(env.deps.db, log);
      try {
        expect(next.current()!.node).toBe(node);
        // Were the dead instance only frozen, on waking it no longer trusts its lease, and its
        // renewal finds the node taken (and, here, no other free): still no ids.
        expect(() => deadIds.next()).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }));
        await dead.renew();
        expect(dead.current()).toBeUndefined();
        const nextIds = new IdGenerator(next);
        // Even with a clock behind the dead instance's, its ids are above every id issued there.
        const fresh = nextIds.next(Date.now() - 60_000);
        for (const id of issued) expect(BigInt(fresh)).toBeGreaterThan(BigInt(id));
      } finally {
        await Promise.all([next.stop(), dead.stop()]);
      }
    } finally {
      await freeAllNodesBut([mine]);
    }
  });

  it('takes another node when its own was taken while it was frozen', async () => {
    const mine = env.deps.idLease.current()!.node;
    const frozen = await IdNodeLease.start(env.deps.db, log, { leaseMs: 300, renewMs: 3_600_000 });
    const node = frozen.current()!.node;
    await holdAllNodesBut([mine, node]);
    await sleep(400);
    const thief = await IdNodeLease.start(env.deps.db, log);
    await freeAllNodesBut([mine, node]);
    try {
      expect(thief.current()!.node).toBe(node);
      await frozen.renew();
      expect(frozen.current()!.node).not.toBe(node);
    } finally {
      await Promise.all([thief.stop(), frozen.stop()]);
    }
  });
});

describe('the order writer', () => {
  async function draft(sessionId: string, seatId: string, userId: string, id: string) {
    const cat = await env.deps.catalog.requireSession(sessionId);
    const input = { sessionId, seatIds: [seatId] };
    return buildOrder({
      id,
      userId,
      cat,
      units: resolveUnits(cat, input),
      slots: [],
      idempotencyKey: null,
      requestHash: requestHash(input),
      now: env.clock.now(),
      expireAt: new Date(env.clock.now().getTime() + 15 * 60_000),
      attendees: [],
      admissionJti: null,
      admissionUntil: null,
      contactPhone: null,
    });
  }

  it('counts a taken id as written only when the stored row is this very order', async () => {
    const [s1, s2] = [
      await createSession(env.deps, { seats: 2 }),
      await createSession(env.deps, { seats: 2 }),
    ];
    const [u1, u2] = await createUsers(env.deps, 2);
    const id = IdGenerator.fixed(1023).next(env.clock.now().getTime());
    const first = await draft(s1.sessionId, s1.seatIds[0]!, u1!, id);
    await env.deps.writer.write(first);
    // The same order again (its commit's answer was lost): written.
    await expect(env.deps.writer.write(first)).resolves.toBeUndefined();
    // Another order with the same id: refused, never confirmed.
    const other = await draft(s2.sessionId, s2.seatIds[0]!, u2!, id);
    const err = await env.deps.writer.write(other).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteError);
    expect((err as WriteError).reason).toBe('order_id_collision');
    const rows = await ordersWithIds([id]);
    expect(rows.map((r) => String(r.user_id))).toEqual([u1]);
  });

  it('answers a purchase whose id collides with an error and gives its seats back', async () => {
    const [s1, s2] = [
      await createSession(env.deps, { seats: 2 }),
      await createSession(env.deps, { seats: 2 }),
    ];
    const [u1, u2] = await createUsers(env.deps, 2);
    const a = await env.deps.orders.create(
      u1!,
      { sessionId: s1.sessionId, seatIds: [s1.seatIds[0]!] },
      undefined,
      env.clock.now(),
    );
    const d = (env.deps.orders as unknown as { d: OrderServiceDeps }).d;
    const colliding = new OrderService({
      ...d,
      ids: { next: () => a.orderNo.slice(6) } as unknown as IdGenerator,
    });
    await expect(
      colliding.create(
        u2!,
        { sessionId: s2.sessionId, seatIds: [s2.seatIds[0]!] },
        undefined,
        env.clock.now(),
      ),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await env.deps.inventory.availability(s2.sessionId)).toBe(2);
    expect((await ordersWithIds([a.orderNo.slice(6)])).map((r) => String(r.user_id))).toEqual([u1]);
  });
});
