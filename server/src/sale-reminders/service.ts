import type { SaleReminder, SaleReminderList } from '@showtix/shared-types';
import { inTransaction, type Db } from '../db/pool';
import { appError } from '../errors';
import { enqueue } from '../outbox/repo';
import * as repo from './repo';

/** Reminders read per page. */
const BATCH = 500;
/** A run stops reading pages after this long (the job runs every 30 s). */
const RUN_BUDGET_MS = 20_000;

/**
 * 开售提醒: a fan asks to be told when a show goes on sale (only while none of its sessions is
 * selling and one is still to open); when one opens, the job enqueues one 'sale_open' notice per
 * fan, sent only with the fan's consent (notices/consumer.ts).
 */
export class SaleReminderService {
  constructor(
    private readonly db: Db,
    private readonly relay: { nudge(): void } = { nudge: () => undefined },
  ) {}

  /** Sets the reminder; asking again changes nothing and answers the same. */
  async add(userId: string, showId: string, now: Date): Promise<SaleReminder> {
    const state = await repo.saleStateOf(this.db, showId);
    if (!state) throw appError('NOT_FOUND', undefined, '演出不存在');
    const [existing] = await repo.remindersOf(this.db, userId, showId);
    if (existing) return existing;
    if (state.selling || !state.presale) throw appError('SALE_REMINDER_UNAVAILABLE');
    await repo.insertReminder(this.db, userId, showId, now);
    return (await repo.remindersOf(this.db, userId, showId))[0]!;
  }

  /** Cancels it; cancelling one that is not there is no error (a retried tap). */
  async remove(userId: string, showId: string): Promise<{ removed: boolean }> {
    return { removed: await repo.deleteReminder(this.db, userId, showId) };
  }

  async mine(userId: string): Promise<SaleReminderList> {
    return { items: await repo.remindersOf(this.db, userId) };
  }

  /**
   * Enqueues the sale_open notice of every reminder whose show has a session selling, once per
   * fan and show: the claim (notified_at) and the outbox message are written in one transaction,
   * so a second run, or another instance running at the same time, enqueues nothing more. Page
   * after page until none is left or the run's time is up (a show many fans wait for is told
   * within a few runs; the next run takes the rest).
   */
  async enqueueDue(now: Date, o: { batch?: number; budgetMs?: number } = {}): Promise<number> {
    const batch = o.batch ?? BATCH;
    const started = Date.now();
    let enqueued = 0;
    for (;;) {
      const due = await repo.dueSaleReminders(this.db, batch);
      for (const r of due) if (await this.enqueueOne(r, now)) enqueued++;
      if (enqueued) this.relay.nudge();
      if (due.length < batch || Date.now() - started > (o.budgetMs ?? RUN_BUDGET_MS)) return enqueued;
    }
  }

  private enqueueOne(r: { userId: string; showId: string; sessionId: string }, now: Date) {
    return inTransaction(this.db, async (conn) => {
      if (!(await repo.claimSaleReminder(conn, r, now))) return false;
      await enqueue(conn, 'notice.send', `sale-open-${r.showId}-${r.userId}`, {
        userId: r.userId,
        template: 'sale_open',
        showId: r.showId,
        sessionId: r.sessionId,
      });
      return true;
    });
  }
}
