import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import { paidWithoutTickets } from '../orders/repo';
import { refundsToResend } from '../refunds/repo';
import type { RefundService } from '../refunds/service';
import { issueTickets, type TicketDeps } from '../tickets/service';

const BATCH = 100;

/**
 * Every payment ends in tickets: PAID orders whose tickets never came (the order.paid message
 * was dead-lettered, or lost with a broker) get them now. The sweeper runs the tickets
 * consumer's own handler, which is idempotent (order lock, paid status check, one ticket per
 * item), so it also works while RabbitMQ is down and never issues twice.
 */
export async function sweepPaidWithoutTickets(
  d: TicketDeps & { db: Db },
  now: Date,
  olderThanMs: number,
): Promise<number> {
  let issued = 0;
  for (const id of await paidWithoutTickets(d.db, new Date(now.getTime() - olderThanMs), BATCH)) {
    try {
      if ((await issueTickets(d, id, now)) === 'issued') issued++;
    } catch (err) {
      d.log.error({ err, orderId: id }, 'issuing the tickets of a paid order failed; the next sweep retries');
    }
  }
  if (issued) d.log.warn({ issued }, 'tickets issued for paid orders the consumer never served');
  return issued;
}

/**
 * Refunds stuck in REQUESTED (WeChat answered SYSTEM_ERROR or NOT_ENOUGH, or the message died):
 * sent again with the same out_refund_no, so WeChat refunds at most once, each after its backoff
 * (refunds.next_attempt_at). PROCESSING and ABNORMAL refunds are re-queried by the refund-check
 * job; an ABNORMAL one is with an operator (refund_cases).
 */
export async function resendStuckRefunds(
  d: { db: Db; refunds: RefundService; log: Logger },
  now: Date,
  olderThanMs: number,
): Promise<number> {
  let sent = 0;
  for (const id of await refundsToResend(d.db, now, new Date(now.getTime() - olderThanMs), BATCH)) {
    try {
      await d.refunds.execute(id, now);
      sent++;
    } catch (err) {
      d.log.warn({ err, refundId: id }, 'refund still refused by WeChat; retrying after its backoff');
    }
  }
  return sent;
}
