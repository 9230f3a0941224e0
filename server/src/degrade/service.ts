import type { Logger } from 'pino';
import {
  SEAT_POLL_DEFAULT_MS,
  type DegradeEntry,
  type DegradeSetInput,
  type DegradeState,
} from '@showtix/shared-types';
import type { Db } from '../db/pool';
import { appError } from '../http/errors';
import type { Actor } from '../audit/actor';
import { audited } from '../audit/tx';
import type { SessionCatalog } from '../catalog/types';
import { findSwitch, listSwitches, sessionExists, writeSwitch } from './repo';

/**
 * Backstop for a lost invalidation message (pub/sub is at most once): every instance reloads
 * the switches this often anyway. Flips normally arrive within milliseconds.
 */
const RELOAD_MS = 5_000;

const EMPTY: DegradeState = {
  seatPollMs: null,
  pauseNonEssential: false,
  forcedQueueSessionIds: [],
  items: [],
};

function stateOf(items: DegradeEntry[]): DegradeState {
  const poll = items.find((i) => i.name === 'seat_poll');
  return {
    seatPollMs: poll ? poll.value : null,
    pauseNonEssential: items.some((i) => i.name === 'pause_nonessential'),
    forcedQueueSessionIds: items.filter((i) => i.name === 'force_queue').map((i) => i.sessionId!),
    items,
  };
}

export interface DegradeDeps {
  db: Db;
  log: Logger;
  /** Tells every other instance to reload (cache invalidation, kind 'degrade'). */
  publish: () => void;
  /** A session's forced-queue switch changed here: its cached catalog must go. */
  sessionChanged: (sessionId: string) => void;
}

/**
 * The degradation switches (熔断降级) as this instance applies them: read from MySQL at start,
 * after every flip (here, or on another instance through the invalidation channel) and every
 * RELOAD_MS. Reads are from memory, so the checks on hot paths cost nothing.
 */
export class DegradeService {
  private state: DegradeState = EMPTY;
  private forced = new Set<string>();
  private timer?: NodeJS.Timeout;
  private reloading?: Promise<void>;

  constructor(private readonly d: DegradeDeps) {}

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => void this.reload(), RELOAD_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.reloading;
  }

  /** Reads the switches again; one read at a time (a flip during a read reads once more after). */
  reload(): Promise<void> {
    const run = (this.reloading ?? Promise.resolve()).then(() => this.read());
    const tracked = run.catch((err: Error) =>
      this.d.log.warn({ err: err.message }, 'could not read the degradation switches; keeping the last ones'),
    );
    this.reloading = tracked;
    return tracked;
  }

  private async read(): Promise<void> {
    const next = stateOf(await listSwitches(this.d.db));
    const forced = new Set(next.forcedQueueSessionIds);
    const changed = [...forced, ...this.forced].filter((id) => forced.has(id) !== this.forced.has(id));
    this.state = next;
    this.forced = forced;
    for (const id of changed) this.d.sessionChanged(id);
  }

  current(): DegradeState {
    return this.state;
  }

  /** The seat-states poll interval clients are told. */
  seatPollMs(): number {
    return this.state.seatPollMs ?? SEAT_POLL_DEFAULT_MS;
  }

  nonEssentialPaused(): boolean {
    return this.state.pauseNonEssential;
  }

  /** A catalog as the switches make it: a forced session has its waiting room on. */
  apply(cat: SessionCatalog): SessionCatalog {
    return this.forced.has(cat.id) && !cat.queueEnabled ? { ...cat, queueEnabled: true } : cat;
  }

  /** Flips one switch (audited), applies it here at once and tells every other instance. */
  async set(who: Actor, input: DegradeSetInput, now: Date): Promise<DegradeState> {
    const scopeId = input.name === 'force_queue' ? input.sessionId : '0';
    if (input.name === 'force_queue' && !(await sessionExists(this.d.db, scopeId)))
      throw appError('NOT_FOUND', undefined, '场次不存在');
    const value = input.name === 'seat_poll' ? (input.pollMs ?? undefined) : input.on ? 1 : undefined;
    const reason = input.reason ?? '';
    await audited(
      this.d.db,
      who,
      now,
      async (conn) => {
        const before = await findSwitch(conn, input.name, scopeId);
        await writeSwitch(conn, { name: input.name, scopeId, value, reason, by: who.username, now });
        return before;
      },
      (before) => ({
        action: value === undefined ? 'degrade.off' : 'degrade.on',
        entityType: 'degrade_switch',
        entityId: input.name === 'force_queue' ? `${input.name}:${scopeId}` : input.name,
        before: before ?? null,
        after: value === undefined ? null : { value, reason },
      }),
    );
    await this.reload();
    this.d.publish();
    return this.state;
  }
}
