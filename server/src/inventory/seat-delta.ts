import { createHash } from 'node:crypto';
import type { SeatStatesDelta } from '@showtix/shared-types';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Keys } from '../redis/keys';

/**
 * How long a version stays diffable: well above the clients' poll interval (4 s), so a poll
 * gets a delta even after a few missed ones; older versions get the full list.
 */
export const SNAPSHOT_TTL_MS = 120_000;

/** Held and sold seat ids, each list sorted: the states a version names. */
export interface StateLists {
  held: string[];
  sold: string[];
}

/**
 * Versions of seat states by content. A version is a hash of the sorted held and sold lists,
 * so two instances that see the same states name them the same, without a counter that every
 * script writing a seat would have to bump, and a hold that expires by time alone (no write)
 * still changes the version. Each version's lists are kept in Redis for snapshotTtlMs (under
 * the session's hash tag), so any instance can answer "what changed since v"; an older or
 * unknown version gets the full list. Bounded: one short-lived snapshot per distinct state.
 */
export class SeatVersions {
  private readonly local = new LRUCache<string, StateLists>({ max: 32 });

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    private readonly snapshotTtlMs = SNAPSHOT_TTL_MS,
  ) {}

  static versionOf(s: StateLists): string {
    return createHash('sha256')
      .update(s.held.join(','))
      .update('|')
      .update(s.sold.join(','))
      .digest('base64url')
      .slice(0, 16);
  }

  /** Records a version's lists so every instance can diff against it. */
  async publish(sessionId: string, version: string, s: StateLists): Promise<void> {
    const key = this.keys.session(sessionId).snapshot(version);
    const local = `${sessionId}:${version}`;
    // Unchanged states (the usual case between two loads): keep the snapshot alive without
    // sending its lists again; write them only when this instance has not, or Redis lost them.
    if (this.local.has(local) && (await this.redis.pexpire(key, this.snapshotTtlMs)) === 1) return;
    this.local.set(local, s);
    await this.redis.set(key, JSON.stringify(s), 'PX', this.snapshotTtlMs, 'NX');
  }

  /** The lists of an earlier version, or null when it is unknown or too old. */
  async find(sessionId: string, version: string): Promise<StateLists | null> {
    if (!/^[\w-]{16}$/.test(version)) return null;
    const key = `${sessionId}:${version}`;
    const hit = this.local.get(key);
    if (hit) return hit;
    const raw = await this.redis.get(this.keys.session(sessionId).snapshot(version));
    if (!raw) return null;
    const s = JSON.parse(raw) as StateLists;
    this.local.set(key, s);
    return s;
  }
}

/** The seats whose state differs between two versions' lists, by their new state. */
export function diffStates(
  from: StateLists,
  to: StateLists,
): Pick<SeatStatesDelta, 'held' | 'sold' | 'available'> {
  const before = new Map<string, number>();
  for (const id of from.held) before.set(id, 1);
  for (const id of from.sold) before.set(id, 2);
  const held = to.held.filter((id) => before.get(id) !== 1);
  const sold = to.sold.filter((id) => before.get(id) !== 2);
  const now = new Set([...to.held, ...to.sold]);
  const available = [...before.keys()].filter((id) => !now.has(id));
  return { held, sold, available };
}
