import type {
  SessionCancelInput,
  SessionChangeView,
  SessionChangesView,
  SessionPostponeInput,
} from '@showtix/shared-types';
import type { Actor } from '../audit/actor';
import { audited } from '../audit/tx';
import { transitionSession } from '../catalog/repo';
import { SESSION_STATUS } from '../catalog/types';
import { ER_DUP_ENTRY, sqlErrno, type Conn } from '../db/pool';
import { appError } from '../errors';
import type { SessionChangeDeps } from './deps';
import { runSessionChanges } from './run';
import * as repo from './repo';

const LIVE = [SESSION_STATUS.PRESALE, SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT];

/** Why a session cannot change any more: ended (or started), or already cancelled. */
function refuseIfOver(s: repo.SessionLock, now: Date, what: string): void {
  if (s.status === SESSION_STATUS.CANCELLED)
    throw appError('SESSION_STATE_INVALID', { status: 'cancelled' }, `场次已取消，不能${what}`);
  if (s.status === SESSION_STATUS.ENDED || s.starts_at.getTime() <= now.getTime())
    throw appError('SESSION_STATE_INVALID', { status: 'ended' }, `场次已结束，不能${what}`);
}

/**
 * Cancelling and postponing a session (issue 16). The admin's request changes the session and
 * records the change in one audited transaction; the fans' notices and, for a cancellation,
 * the refunds follow from the resumable run (run.ts), one row per order.
 */
export class SessionChangeService {
  constructor(private readonly d: SessionChangeDeps) {}

  private async lock(c: Conn, sessionId: string): Promise<repo.SessionLock> {
    const s = await repo.lockSession(c, sessionId);
    if (!s) throw appError('NOT_FOUND', undefined, '场次不存在');
    return s;
  }

  /**
   * Stops the sale (MySQL status, then the Redis gate), holds every ticket (the gate refuses
   * them from this commit on) and starts the refund run.
   */
  async cancel(
    who: Actor,
    sessionId: string,
    input: SessionCancelInput,
    now: Date,
  ): Promise<SessionChangeView> {
    const changeId = await audited(
      this.d.db,
      who,
      now,
      async (c) => {
        const s = await this.lock(c, sessionId);
        refuseIfOver(s, now, '取消');
        await transitionSession(c, sessionId, LIVE, SESSION_STATUS.CANCELLED);
        await repo.holdSessionTickets(c, sessionId);
        return repo.insertChange(c, {
          sessionId,
          kind: 'cancel',
          reason: input.reason,
          oldStartsAt: s.starts_at,
          newStartsAt: null,
          refundUntil: null,
          createdBy: who.username,
          createdAt: now,
        });
      },
      (id) => ({
        action: 'session.cancel',
        entityType: 'session',
        entityId: sessionId,
        after: { status: 'cancelled', changeId: id, reason: input.reason },
      }),
    );
    // The run closes the gate again on every pass: a crash right here leaves nothing open.
    await this.d.inventory.setOpen(sessionId, false);
    this.d.catalog.invalidate(sessionId);
    return this.view((await repo.changeById(this.d.db, changeId))!);
  }

  /** Moves the date and opens a full-refund window until `refundUntil`; every fan is told. */
  async postpone(
    who: Actor,
    sessionId: string,
    input: SessionPostponeInput,
    now: Date,
  ): Promise<SessionChangeView> {
    const startsAt = new Date(input.startsAt);
    const refundUntil = new Date(input.refundUntil);
    if (refundUntil.getTime() <= now.getTime())
      throw appError('VALIDATION_FAILED', { field: 'refundUntil' }, '全额退票截止时间必须晚于当前时间');
    if (refundUntil.getTime() > startsAt.getTime())
      throw appError('VALIDATION_FAILED', { field: 'refundUntil' }, '全额退票截止时间不能晚于新的演出时间');
    const changeId = await audited(
      this.d.db,
      who,
      now,
      async (c) => {
        const s = await this.lock(c, sessionId);
        refuseIfOver(s, now, '延期');
        if (startsAt.getTime() <= s.starts_at.getTime())
          throw appError('VALIDATION_FAILED', { field: 'startsAt' }, '延期后的演出时间必须晚于原定时间');
        await repo
          .setPostponed(c, sessionId, { startsAt, from: s.starts_at, refundUntil })
          .catch((err: unknown) => {
            if (sqlErrno(err) === ER_DUP_ENTRY)
              throw appError('VALIDATION_FAILED', { field: 'startsAt' }, '该演出已有相同开始时间的场次');
            throw err;
          });
        return repo.insertChange(c, {
          sessionId,
          kind: 'postpone',
          reason: input.reason ?? '',
          oldStartsAt: s.starts_at,
          newStartsAt: startsAt,
          refundUntil,
          createdBy: who.username,
          createdAt: now,
        });
      },
      (id) => ({
        action: 'session.postpone',
        entityType: 'session',
        entityId: sessionId,
        after: { changeId: id, startsAt: input.startsAt, refundUntil: input.refundUntil },
      }),
    );
    this.d.catalog.invalidate(sessionId);
    return this.view((await repo.changeById(this.d.db, changeId))!);
  }

  /** One pass of the resumable run (the job, every second; tests call it directly). */
  run(now: Date, budget?: number): Promise<number> {
    return runSessionChanges(this.d, now, budget);
  }

  /** Every change of the session, newest first, each counted to the fen. */
  async changes(sessionId: string): Promise<SessionChangesView> {
    const rows = await repo.changesOf(this.d.db, sessionId);
    return { items: await Promise.all(rows.map((r) => this.view(r))) };
  }

  async view(c: repo.ChangeRecord): Promise<SessionChangeView> {
    const [counts, pendingLeft, problems] = await Promise.all([
      repo.changeCounts(this.d.db, c.id),
      c.kind === 'cancel' ? repo.countPending(this.d.db, c.sessionId) : Promise.resolve(0),
      c.kind === 'cancel' ? repo.changeProblems(this.d.db, c.id, 50) : Promise.resolve([]),
    ]);
    const { fenToRefund, fenRefunded, ...orders } = counts;
    const cancel = c.kind === 'cancel';
    return {
      id: String(c.id),
      sessionId: String(c.sessionId),
      kind: c.kind,
      state: c.state,
      reason: c.reason,
      oldStartsAt: c.oldStartsAt.toISOString(),
      newStartsAt: c.newStartsAt?.toISOString() ?? null,
      refundUntil: c.refundUntil?.toISOString() ?? null,
      createdBy: c.createdBy,
      createdAt: c.createdAt.toISOString(),
      finishedAt: c.finishedAt?.toISOString() ?? null,
      orders,
      pendingLeft,
      fenToRefund: cancel ? fenToRefund : 0,
      fenRefunded: cancel ? fenRefunded : 0,
      problems,
    };
  }
}
