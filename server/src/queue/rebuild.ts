import type { Logger } from 'pino';
import { inTransaction, type Db } from '../db/pool';
import type { SessionKeys } from '../redis/keys';
import type { ScriptedRedis } from '../redis/scripts';
import { entriesOf, lockRoomForRebuild } from './repo';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Puts a session's waiting room back into Redis from MySQL, in the same order: places as
 * recorded, the pre-sale pool (frozen again if its draw had not been recorded, so the draw is
 * redone from the recorded seed), ID documents, turn starts and the admission counter. The
 * room's row stays locked (and its epoch bumped) until Redis holds the copy, which fences out
 * joins recorded meanwhile from the older Redis (queue/log.ts). One MULTI, so nobody sees half.
 * The state hash carries the epoch: a queue without it is missing and is rebuilt first.
 */
export async function rebuildRoom(
  db: Db,
  redis: ScriptedRedis,
  q: SessionKeys['queue'],
  sessionId: string,
  nowMs: number,
): Promise<number> {
  // Committed only once Redis holds the copy: the room's row lock fences out joins meanwhile.
  return inTransaction(db, async (conn) => {
    const room = await lockRoomForRebuild(conn, sessionId);
    const entries = await entriesOf(conn, sessionId);
    const opened = room.openedAt !== null;
    const drawing = opened && !room.drawn;
    const multi = redis.multi();
    multi.del(q.state, q.pre, q.frozen, q.line, q.ids, q.turns);
    const line: (string | number)[] = [];
    const pool: (string | number)[] = [];
    const ids: string[] = [];
    const turns: (string | number)[] = [];
    let seq = opened ? (room.poolSize ?? 0) : 0;
    for (const e of entries) {
      if (e.presale && (!opened || drawing)) pool.push(e.joinedAtMs, e.userId);
      else if (e.place !== null) line.push(e.place, e.userId);
      if (e.place !== null && (!e.presale || !drawing)) seq = Math.max(seq, e.place);
      if (e.idHash) ids.push(e.idHash, e.userId);
      if (e.turnStartMs !== null) turns.push(e.userId, e.turnStartMs);
    }
    const poolKey = opened ? q.frozen : q.pre;
    for (let i = 0; i < pool.length; i += 10_000) multi.zadd(poolKey, ...pool.slice(i, i + 10_000));
    for (let i = 0; i < line.length; i += 10_000) multi.zadd(q.line, ...line.slice(i, i + 10_000));
    for (let i = 0; i < ids.length; i += 10_000) multi.hset(q.ids, ...ids.slice(i, i + 10_000));
    for (let i = 0; i < turns.length; i += 10_000) multi.hset(q.turns, ...turns.slice(i, i + 10_000));
    const state: (string | number)[] = ['epoch', room.epoch, 'open', opened ? '1' : '0', 'seq', seq];
    if (opened)
      state.push(
        ...['pool', room.poolSize ?? 0, 'seed', room.seed ?? '', 'drawing', drawing ? '1' : '0'],
        ...['admitted', room.admittedThrough, 'tickMs', nowMs, 'carry', '0'],
      );
    multi.hset(q.state, ...state);
    const res = await multi.exec();
    const failed = res?.find(([err]) => err);
    if (!res || failed) throw failed?.[0] ?? new Error('waiting room rebuild: MULTI aborted');
    return entries.length;
  });
}

/**
 * One rebuild at a time per session: in this instance callers share the run; across instances
 * the Redis lock picks one and the others wait for the state hash (with its epoch) to reappear.
 */
export class RoomRebuilder {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly redis: ScriptedRedis,
    private readonly log: Logger,
  ) {}

  rebuild(sessionId: string, q: SessionKeys['queue'], lockKey: string, nowMs: number): Promise<void> {
    let run = this.running.get(sessionId);
    if (!run) {
      run = this.exclusive(sessionId, q, lockKey, nowMs).finally(() => this.running.delete(sessionId));
      this.running.set(sessionId, run);
    }
    return run;
  }

  private async exclusive(sessionId: string, q: SessionKeys['queue'], lockKey: string, nowMs: number) {
    const token = `${process.pid}:${Math.random()}`;
    if ((await this.redis.set(lockKey, token, 'PX', 30_000, 'NX')) !== 'OK') {
      for (let i = 0; i < 100 && !(await this.redis.hexists(q.state, 'epoch')); i++) await sleep(100);
      return;
    }
    try {
      const fans = await rebuildRoom(this.db, this.redis, q, sessionId, nowMs);
      this.log.warn({ sessionId, fans }, 'waiting room rebuilt from MySQL');
    } finally {
      if ((await this.redis.get(lockKey)) === token) await this.redis.del(lockKey);
    }
  }
}
