import { randomBytes } from 'node:crypto';
import type { QueueStatus } from '@showtix/shared-types';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { IdentityVault } from '../attendees/crypto';
import type { CatalogService } from '../catalog/service';
import type { SessionCatalog } from '../catalog/types';
import { SESSION_STATUS } from '../catalog/types';
import { appError } from '../errors';
import { RC } from '../redis/codes';
import type { Keys, SessionKeys } from '../redis/keys';
import type { ScriptedRedis } from '../redis/scripts';
import { drawPool } from './draw';
import { QueueLog, StaleEpoch } from './log';
import { WaitingPlaces, type QueueView, type WaitingPlacesOptions } from './waiting-places';
import { RoomRebuilder } from './rebuild';
import { hasLiveEntry, recordAdmitted, recordOpened, roomWatermarks } from './repo';
import type { AdmissionTokens } from './tokens';
import { rateArgs, type ScriptRates } from '../inventory/types';
import { rateLimited, type Client } from '../risk/limits';
import type { RiskService } from '../risk/service';

export interface QueueOptions extends WaitingPlacesOptions {
  /** How long an admitted fan's turn lasts. */
  turnMs: number;
  defaultRatePerMin: number;
}

/**
 * The waiting room of a session (Ticketmaster Smart Queue): fans who join before the sale are
 * drawn into a random order when it opens, later arrivals queue in order, and the session's
 * rate admits them; an admitted fan gets a signed admission token for a time-limited turn.
 * Redis serves it; MySQL records every join (before it is answered), the opening, the draw and
 * the admissions, and a queue Redis lost is rebuilt from there in the same order (rebuild.ts).
 */
export class QueueService {
  private readonly joins: QueueLog;
  private readonly rebuilder: RoomRebuilder;
  /** Waiting fans' places and the rooms' state, to answer their polls without Redis. */
  private readonly places: WaitingPlaces;

  constructor(
    private readonly db: Db,
    writerDb: Db,
    private readonly redis: ScriptedRedis,
    private readonly keys: Keys,
    private readonly catalog: CatalogService,
    private readonly tokens: AdmissionTokens,
    private readonly vault: IdentityVault,
    private readonly risk: RiskService,
    private readonly log: Logger,
    private readonly o: QueueOptions,
  ) {
    this.joins = new QueueLog(writerDb, log);
    this.rebuilder = new RoomRebuilder(db, redis, log);
    this.places = new WaitingPlaces(o);
  }

  /** Resolves once every join taken so far is recorded (shutdown, tests). */
  drained(): Promise<void> {
    return this.joins.drained();
  }

  /** Rebuilds the session's queue from MySQL (also when Redis still has one: see tick). */
  async rebuild(sessionId: string, nowMs: number): Promise<void> {
    const k = this.keys.session(sessionId);
    await this.rebuilder.rebuild(sessionId, k.queue, `${k.rebuildLock}:q`, nowMs);
    this.places.forget(sessionId);
  }

  /** Runs a queue script; when Redis lost the queue (no epoch), rebuilds it and runs it once more. */
  private async withRoom<T>(
    sessionId: string,
    nowMs: number,
    run: () => Promise<T>,
    lost: (r: T) => boolean,
  ): Promise<T> {
    const first = await run();
    if (!lost(first)) return first;
    await this.rebuild(sessionId, nowMs);
    const again = await run();
    if (lost(again)) throw appError('SERVICE_UNAVAILABLE', { reason: 'waiting room rebuilding' });
    return again;
  }

  /**
   * Joins (idempotent) after the blocklist check; the join rates are counted in the join script
   * (risk/service.ts joinRates). The device and address were noted for risk flags at login
   * (auth/service.ts), which every joining fan went through: noting them again here cost a Redis
   * MULTI per join, the largest part of a join's CPU in the profile.
   */
  async join(
    userId: string,
    sessionId: string,
    id: { idType?: string; idNumber?: string },
    now: Date,
    client?: Client,
  ): Promise<QueueStatus> {
    const rates = client ? await this.risk.joinRates(userId, client, now.getTime()) : {};
    const cat = await this.catalog.requireSession(sessionId);
    if (!cat.queueEnabled) return this.noQueue(cat);
    if (cat.status === SESSION_STATUS.ENDED) throw appError('NOT_ON_SALE');
    let idHash = '';
    if (cat.realName) {
      if (!id.idType || !id.idNumber)
        throw appError('VALIDATION_FAILED', { field: 'idNumber' }, '实名制场次排队需填写证件');
      idHash = this.vault.idHash(id.idNumber);
    }
    for (let attempt = 1; ; attempt++) {
      // Counted once: a join run again on a rebuilt queue (StaleEpoch) is the same request.
      const view = await this.joinScript(
        sessionId,
        userId,
        now.getTime(),
        idHash,
        attempt === 1 ? rates : {},
      );
      try {
        // Durable before the answer: a place the fan was told survives Redis losing it.
        await this.joins.record({
          sessionId,
          userId,
          place: view[0] === '' ? null : Number(view[0]),
          idHash: idHash || null,
          joinedAt: now,
          epoch: Number(view[7]),
        });
      } catch (err) {
        // The queue was rebuilt while this join was recorded: join the rebuilt one.
        if (err instanceof StaleEpoch && attempt < 3) continue;
        throw err;
      }
      this.places.noteView(sessionId, userId, view, now.getTime());
      return this.toStatus(cat, userId, view, now);
    }
  }

  /** The join script (after a rebuild if Redis lost the queue): the fan's view, or its refusal thrown. */
  private async joinScript(
    sessionId: string,
    userId: string,
    nowMs: number,
    idHash: string,
    rates: ScriptRates,
  ): Promise<QueueView> {
    const k = this.keys.session(sessionId);
    const q = k.queue;
    const rateKeys = [
      k.joinRate('u', rates.user?.subject),
      k.joinRate('d', rates.device?.subject),
      k.joinRate('i', rates.ip?.subject),
    ];
    const [code, view] = (await this.withRoom(
      sessionId,
      nowMs,
      () =>
        this.redis.queueJoin(
          q.state,
          q.pre,
          q.frozen,
          q.line,
          q.ids,
          q.turns,
          ...rateKeys,
          userId,
          nowMs,
          idHash,
          ...rateArgs(rates),
        ),
      (r) => r[0] === RC.NOT_READY,
    )) as unknown as [number, QueueView];
    if (code === RC.ID_TAKEN) throw appError('QUEUE_ID_TAKEN');
    // The script answered the wait instead of a view.
    if (code === RC.RATE_LIMITED) throw rateLimited(Number(view));
    return view;
  }

  async status(userId: string, sessionId: string, now: Date, client?: Client): Promise<QueueStatus> {
    if (client) await this.risk.guardPoll(userId, client, now.getTime());
    const cat = await this.catalog.requireSession(sessionId);
    if (!cat.queueEnabled) return this.noQueue(cat);
    const known = this.places.waiting(sessionId, userId, now.getTime());
    if (known) return this.waitingStatus(cat, known.position, known.admittedThrough, known.soldOut);
    const q = this.keys.session(sessionId).queue;
    const read = () => this.redis.queueStatus(q.state, q.pre, q.frozen, q.line, q.turns, userId);
    let view = (await this.withRoom(
      sessionId,
      now.getTime(),
      read,
      (v) => v[7] === '',
    )) as unknown as QueueView;
    if (await this.lostFan(sessionId, userId, view, now)) {
      await this.rebuild(sessionId, now.getTime());
      view = (await read()) as unknown as QueueView;
    }
    this.places.noteView(sessionId, userId, view, now.getTime());
    return this.toStatus(cat, userId, view, now);
  }

  /**
   * A fan Redis does not know although MySQL recorded their join: a failover that dropped the
   * last writes (the queue's keys are still there, so withRoom sees nothing wrong). The tick
   * notices this too, but only while the sale is open; the poll notices it at once, before the
   * sale as well. Only a poll that finds no place pays the point read, and polls are rate-limited.
   * A fan whose turn ended is not lost: the end gave the place up in Redis only (admittedStatus),
   * and counting them lost rebuilt the whole room from MySQL on each of their polls.
   */
  private async lostFan(sessionId: string, userId: string, view: QueueView, now: Date): Promise<boolean> {
    const [place, drawing, , , inPre, inDraw] = view;
    if (place !== '' || inPre === '1' || inDraw === '1' || drawing === '1') return false;
    return hasLiveEntry(this.db, sessionId, userId, new Date(now.getTime() - this.o.turnMs));
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
    if (position > admittedUpTo) return this.waitingStatus(cat, position, admittedUpTo, soldOut);
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

  /**
   * A fan with a place not yet admitted, whether Redis's view or this instance's says so
   * (waiting-places.ts). Built whole, not spread from the other states' base: it is most polls'
   * answer, and the spread was the poll's largest own cost in the profile. Its keys are in the
   * order the other states give them.
   */
  private waitingStatus(
    cat: SessionCatalog,
    position: number,
    admittedUpTo: number,
    soldOut: boolean,
  ): QueueStatus {
    const ahead = position - admittedUpTo - 1;
    const rate = cat.queueRatePerMin ?? this.o.defaultRatePerMin;
    return {
      sessionId: cat.id,
      queueEnabled: true,
      soldOut,
      admitted: false,
      position,
      ahead,
      etaSeconds: Math.ceil((ahead / Math.max(rate, 1)) * 60),
      admittedThrough: admittedUpTo,
      state: soldOut ? 'sold_out' : 'waiting',
      pollAfterMs: pollInterval(ahead),
    };
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
   * random draw if one is pending, admit the next fans at the session's rate, record the
   * admissions, and rebuild the queue if Redis has gone back behind what MySQL recorded (a
   * failover that lost the last writes keeps the keys, so only this comparison shows it).
   */
  async tick(cat: SessionCatalog, now: Date): Promise<{ admitted: number; soldOut: boolean } | undefined> {
    const q = this.keys.session(cat.id).queue;
    const nowMs = now.getTime();
    const seed = randomBytes(16).toString('hex');
    const [opened, pool] = await this.withRoom(
      cat.id,
      nowMs,
      () => this.redis.queueOpen(q.state, q.pre, q.frozen, seed, nowMs),
      (r) => r[0] === RC.NOT_READY,
    );
    if (opened === RC.OPENED) await recordOpened(this.db, cat.id, seed, Number(pool), now);
    if ((await this.redis.hget(q.state, 'drawing')) === '1')
      await drawPool({ redis: this.redis, db: this.db, log: this.log }, cat.id, q, now);
    // MySQL first: every place and admission it holds was given by Redis before, so a Redis read
    // after it that is behind means Redis went back (read the other way round, joins in between
    // would look like a loss).
    const w = await roomWatermarks(this.db, cat.id);
    const [code, admitted, soldOut, before, seq, epoch] = await this.redis.queueAdmit(
      q.state,
      this.keys.session(cat.id).meta,
      q.line,
      q.turns,
      nowMs,
      cat.queueRatePerMin ?? this.o.defaultRatePerMin,
    );
    if (code !== RC.ADMITTED) return undefined;
    this.places.noteAdmitted(cat.id, String(epoch), Number(admitted), Number(soldOut) === 1, nowMs);
    if (Number(admitted) > Number(before))
      await recordAdmitted(this.db, cat.id, Number(before), Number(admitted), now);
    if (w && (w.epoch > Number(epoch) || w.maxPlace > Number(seq) || w.admittedThrough > Number(before))) {
      this.log.warn(
        { sessionId: cat.id, mysql: w, redis: { epoch, seq, before } },
        'waiting room behind MySQL',
      );
      await this.rebuild(cat.id, nowMs);
    }
    return { admitted: Number(admitted), soldOut: Number(soldOut) === 1 };
  }
}

/** Far from the front, poll rarely: a million waiting fans must not become a million requests a second. */
function pollInterval(ahead: number): number {
  if (ahead < 50) return 2_000;
  if (ahead < 1_000) return 5_000;
  if (ahead < 20_000) return 15_000;
  return 30_000;
}
