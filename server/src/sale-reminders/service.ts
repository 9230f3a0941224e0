import type { SaleReminder, SaleReminderList } from '@showtix/shared-types';
import { inTransaction, type Db } from '../db/pool';
import { appError } from '../errors';
import { enqueue } from '../outbox/repo';
import * as repo from './repo';

/** Reminders enqueued per run of the job (the next run takes the rest). */
const BATCH = 500;

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
   * so a second run, or another instance running at the same time, enqueues nothing more.
   */
  async enqueueDue(now: Date): Promise<number> {
    let enqueued = 0;
    for (const r of await repo.dueSaleReminders(this.db, BATCH)) {
      const claimed = await inTransaction(this.db, async (conn) => {
        if (!(await repo.claimSaleReminder(conn, r, now))) return false;
        await enqueue(conn, 'notice.send', `sale-open-${r.showId}-${r.userId}`, {
          userId: r.userId,
          template: 'sale_open',
          showId: r.showId,
          sessionId: r.sessionId,
        });
        return true;
      });
      if (claimed) enqueued++;
    }
    if (enqueued) this.relay.nudge();
    return enqueued;
  }
}
