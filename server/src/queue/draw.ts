import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { SessionKeys } from '../redis/keys';
import type { ScriptedRedis } from '../redis/scripts';
import { recordDraw, recordOpened } from './repo';

/**
 * The pre-sale pool's random order: a Fisher-Yates shuffle driven by HMAC-SHA256(seed, i), so
 * it is unpredictable without the seed (kept in Redis) and identical when a draw interrupted by
 * a crash is redone. Members are sorted first so the input order does not matter.
 */
export function drawOrder(members: string[], seed: string): string[] {
  const out = [...members].sort();
  const key = Buffer.from(seed, 'hex');
  for (let i = out.length - 1; i > 0; i--) {
    const r = createHmac('sha256', key).update(String(i)).digest().readUIntBE(0, 6);
    const j = r % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Places 1..n for the pre-sale pool, in the seeded random order; redone identically after a
 * crash. MySQL gets the places (and the opening, in case the tick that opened died before
 * recording it) before Redis shows any of them.
 */
export async function drawPool(
  d: { redis: ScriptedRedis; db: Db; log: Logger },
  sessionId: string,
  q: SessionKeys['queue'],
  now: Date,
): Promise<void> {
  const [seed, pool] = await d.redis.hmget(q.state, 'seed', 'pool');
  const members = await d.redis.zrange(q.frozen, '0', '-1');
  const order = drawOrder(members, seed!);
  await recordOpened(d.db, sessionId, seed!, Number(pool ?? members.length), now);
  await recordDraw(d.db, sessionId, order, now);
  for (let i = 0; i < order.length; i += 5_000) {
    const args: (string | number)[] = [];
    order.slice(i, i + 5_000).forEach((m, j) => args.push(i + j + 1, m));
    await d.redis.zadd(q.line, ...args);
  }
  await d.redis.multi().del(q.frozen).hset(q.state, 'drawing', '0').exec();
  d.log.info({ key: q.state, drawn: order.length }, 'waiting room: pre-sale pool drawn');
}
