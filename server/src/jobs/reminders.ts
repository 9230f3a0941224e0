import type { Db } from '../db/pool';
import { inTransaction } from '../db/pool';
import { enqueue } from '../outbox/repo';
import { claimReminder, dueReminders } from '../notices/repo';

/** Reminders go out for sessions starting within this window ("the day before"). */
export const REMINDER_AHEAD_MS = 24 * 3_600_000;
/** Orders handled per run (the next run takes the rest). */
const BATCH = 500;

export interface ReminderDeps {
  db: Db;
  relay: { nudge(): void };
}

/**
 * Enqueues the day-before reminder of every ticketed order whose session starts in the next
 * 24 hours, once per order: the claim row and the outbox message are written in one
 * transaction, so a second run (or another instance) finds the claim and enqueues nothing.
 * The notice itself is sent only with the fan's consent (notices/consumer.ts).
 */
export async function enqueueReminders(d: ReminderDeps, now: Date): Promise<number> {
  const due = await dueReminders(d.db, now, new Date(now.getTime() + REMINDER_AHEAD_MS), BATCH);
  let enqueued = 0;
  for (const o of due) if (await enqueueReminder(d, o, now)) enqueued++;
  if (enqueued) d.relay.nudge();
  return enqueued;
}

/**
 * One order's reminder, unless it was enqueued already: two instances that both read the order
 * as due race here, and the claim row lets only one of them write the message.
 */
export async function enqueueReminder(
  d: ReminderDeps,
  o: { orderId: string; userId: string },
  now: Date,
): Promise<boolean> {
  return inTransaction(d.db, async (conn) => {
    if (!(await claimReminder(conn, o.orderId, now))) return false;
    await enqueue(conn, 'notice.send', `reminder-${o.orderId}`, {
      userId: o.userId,
      template: 'reminder',
      orderId: o.orderId,
    });
    return true;
  });
}
