import { randomBytes } from 'node:crypto';
import type { QueueStatus } from '@showtix/shared-types';
import type { Logger } from 'pino';
import type { IdentityVault } from '../attendees/crypto';
import type { CatalogService } from '../catalog/service';
import type { SessionCatalog } from '../catalog/types';
import { SESSION_STATUS } from '../catalog/types';
import { appError } from '../errors';
import { RC } from '../redis/codes';
import type { Keys, SessionKeys } from '../redis/keys';
import type { ScriptedRedis } from '../redis/scripts';
import { drawOrder } from './draw';
import type { AdmissionTokens } from './tokens';
import type { Client } from '../risk/limits';
import type { RiskService } from '../risk/service';

/** The queue scripts' view of one fan: place, drawing, admittedThrough, soldOut, inPresalePool, inDraw, turnStart. */
type QueueView = [string, string, string, string, string, string, string];

export interface QueueOptions {
  /** How long an admitted fan's turn lasts. */
  turnMs: number;
  defaultRatePerMin: number;
}

/**
 * The waiting room of a session (Ticketmaster Smart Queue): fans who join before the sale are
 * drawn into a random order when it opens, later arrivals queue in order, and the session's
 * rate admits them; an admitted fan gets a signed admission token for a time-limited turn.
 */
export class QueueService {
  constructor(
    private readonly redis: ScriptedRedis,
    private readonly keys: Keys,
    private readonly catalog: CatalogService,
    private readonly tokens: AdmissionTokens,
    private readonly vault: IdentityVault,
    private readonly risk: RiskService,
    private readonly log: Logger,
    private readonly o: QueueOptions,
  ) {}

  /** Joins (idempotent) after the rate and blocklist checks; notes the device for risk flags. */
  async join(
    userId: string,
    sessionId: string,
    id: { idType?: string; idNumber?: string },
    now: Date,
    client?: Client,
  ): Promise<QueueStatus> {
    if (client)
      await Promise.all([
        this.risk.guardQueue(userId, client, now.getTime()),
        this.risk.noteAccount(userId, client, now),
      ]);
    const cat = await this.catalog.requireSession(sessionId);
    if (!cat.queueEnabled) return this.noQueue(cat);
    if (cat.status === SESSION_STATUS.ENDED) throw appError('NOT_ON_SALE');
    let idHash = '';
    if (cat.realName) {
      if (!id.idType || !id.idNumber)
        throw appError('VALIDATION_FAILED', { field: 'idNumber' }, '实名制场次排队需填写证件');
      idHash = this.vault.idHash(id.idNumber);
    }
    const q = this.keys.session(sessionId).queue;
    const [code, view] = (await this.redis.queueJoin(
      q.state,
      q.pre,
      q.frozen,
      q.line,
      q.ids,
      q.turns,
      userId,
      now.getTime(),
      idHash,
    )) as unknown as [number, QueueView];
    if (code === RC.ID_TAKEN) throw appError('QUEUE_ID_TAKEN');
    return this.toStatus(cat, userId, view, now);
  }

  async status(userId: string, sessionId: string, now: Date, client?: Client): Promise<QueueStatus> {
    if (client) await this.risk.guardQueue(userId, client, now.getTime(), 'poll');
    const cat = await this.catalog.requireSession(sessionId);
    if (!cat.queueEnabled) return this.noQueue(cat);
    const q = this.keys.session(sessionId).queue;
    const view = (await this.redis.queueStatus(
      q.state,
      q.pre,
      q.frozen,
      q.line,
      q.turns,
      userId,
    )) as unknown as QueueView;
    return this.toStatus(cat, userId, view, now);
  }

  /** A fan's status from the scripts' one-step view of the queue. */
  private async toStatus(
    cat: SessionCatalog,
    userId: string,
    view: QueueView,
    now: Date,
  ): Promise<QueueStatus> {
    const [place, drawing, admittedStr, soldOutStr, inPre, inDraw, turnStart] = view;
    const admittedUpTo = Number(admittedStr);
    const soldOut = soldOutStr === '1';
    const rate = cat.queueRatePerMin ?? this.o.defaultRatePerMin;
    const base = {
      sessionId: cat.id,
      queueEnabled: true,
      soldOut,
      admitted: false,
      position: null,
      ahead: null,
      etaSeconds: null,
      admittedThrough: admittedUpTo,
    };
    if (place === '') {
      if (inPre === '1') return { ...base, state: 'presale', pollAfterMs: this.presalePoll(cat, now) };
      if (inDraw === '1' || drawing === '1') return { ...base, state: 'shuffling', pollAfterMs: 2_000 };
      return { ...base, state: soldOut ? 'sold_out' : 'not_joined', pollAfterMs: 10_000 };
    }
    const position = Number(place);
    if (position > admittedUpTo) {
      const ahead = position - admittedUpTo - 1;
      return {
        ...base,
        state: soldOut ? 'sold_out' : 'waiting',
        position,
        ahead,
        etaSeconds: Math.ceil((ahead / Math.max(rate, 1)) * 60),
        pollAfterMs: pollInterval(ahead),
      };
    }
    return this.admittedStatus(
      userId,
      cat.id,
      this.keys.session(cat.id).queue,
      position,
      turnStart === '' ? null : turnStart,
      now,
      base,
    );
  }

  private async admittedStatus(
    userId: string,
    sessionId: string,
    q: SessionKeys['queue'],
    position: number,
    turnStart: string | null,
    now: Date,
    base: Omit<QueueStatus, 'state' | 'pollAfterMs'>,
  ): Promise<QueueStatus> {
    // The admission tick stamped the turn's start; a fan admitted before that (an older
    // version, or a Redis loss) starts now.
    let start = turnStart === null ? now.getTime() : Number(turnStart);
    if (turnStart === null && (await this.redis.hsetnx(q.turns, userId, String(start))) === 0)
      start = Number(await this.redis.hget(q.turns, userId));
    const end = start + this.o.turnMs;
    if (end <= now.getTime()) {
      // The turn is over: the place is given up; joining again queues at the back.
      await this.redis.multi().zrem(q.line, userId).hdel(q.turns, userId).exec();
      return { ...base, state: 'expired', position: null, ahead: null, pollAfterMs: 10_000 };
    }
    return {
      ...base,
      state: 'admitted',
      position,
      ahead: 0,
      admitted: true,
      etaSeconds: 0,
      admissionToken: this.tokens.issue(sessionId, userId, position, end),
      admissionExpiresAt: new Date(end).toISOString(),
      pollAfterMs: 15_000,
    };
  }

  private noQueue(cat: SessionCatalog): QueueStatus {
    return {
      sessionId: cat.id,
      queueEnabled: false,
      state: 'admitted',
      admitted: true,
      position: null,
      ahead: null,
      admittedThrough: null,
      soldOut: false,
      etaSeconds: 0,
      pollAfterMs: 60_000,
    };
  }

  private presalePoll(cat: SessionCatalog, now: Date): number {
    return Math.max(1_000, Math.min(30_000, cat.saleStartsAt.getTime() - now.getTime()));
  }

  /**
   * One pass for a selling session with a queue: open it (freeze the pre-sale pool), finish the
   * random draw if one is pending, and admit the next fans at the session's rate.
   */
  async tick(cat: SessionCatalog, now: Date): Promise<{ admitted: number; soldOut: boolean } | undefined> {
    const k = this.keys.session(cat.id);
    await this.redis.queueOpen(
      k.queue.state,
      k.queue.pre,
      k.queue.frozen,
      randomBytes(16).toString('hex'),
      now.getTime(),
    );
    if ((await this.redis.hget(k.queue.state, 'drawing')) === '1') await this.draw(k);
    const [code, admitted, soldOut] = await this.redis.queueAdmit(
      k.queue.state,
      k.meta,
      k.queue.line,
      k.queue.turns,
      now.getTime(),
      cat.queueRatePerMin ?? this.o.defaultRatePerMin,
    );
    if (code !== RC.ADMITTED) return undefined;
    return { admitted: Number(admitted), soldOut: Number(soldOut) === 1 };
  }

  /** Places 1..n for the pre-sale pool, in the seeded random order; redone identically after a crash. */
  private async draw(k: SessionKeys): Promise<void> {
    const q = k.queue;
    const seed = (await this.redis.hget(q.state, 'seed'))!;
    const members = await this.redis.zrange(q.frozen, '0', '-1');
    const order = drawOrder(members, seed);
    for (let i = 0; i < order.length; i += 5_000) {
      const args: (string | number)[] = [];
      order.slice(i, i + 5_000).forEach((m, j) => args.push(i + j + 1, m));
      await this.redis.zadd(q.line, ...args);
    }
    await this.redis.multi().del(q.frozen).hset(q.state, 'drawing', '0').exec();
    this.log.info({ key: q.state, drawn: order.length }, 'waiting room: pre-sale pool drawn');
  }
}

/** Far from the front, poll rarely: a million waiting fans must not become a million requests a second. */
function pollInterval(ahead: number): number {
  if (ahead < 50) return 2_000;
  if (ahead < 1_000) return 5_000;
  if (ahead < 20_000) return 15_000;
  return 30_000;
}
