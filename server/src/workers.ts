import type { AppDeps } from './wiring';
import { sendNotice } from './notices/consumer';
import { NoticeFirstSteps } from './notices/first-step';
import { handleLatePayment } from './payments/late';
import { TicketIssuer } from './tickets/issuer';

// The topology moved to outbox/topology.ts; re-exported for the tests and tools that import it here.
export { CONSUMERS, QUEUES } from './outbox/topology';

/** Unacknowledged deliveries at once of a consumer that writes them in batches (its batch at most). */
const BATCHED_PREFETCH = 50;

/**
 * The RabbitMQ consumers of one instance. Every handler is idempotent: RabbitMQ may deliver a
 * message twice (relay crash after publishing, consumer crash before acking).
 */
export function startConsumers(d: AppDeps): void {
  const o = {
    prefetch: 20,
    attemptsMax: d.config.consumerAttemptsMax,
    backoffMs: d.config.consumerBackoffMs,
  };
  // The consumers that write what is delivered together in one transaction take more at once:
  // their batch is their prefetch. Pay bench, alternated (issue 14, 2026-12-05): 20 -> 50 took
  // tickets/s from 466 and 474 to 677 and 724, MySQL statements per paid order from 3.1 to 2.5;
  // 100 was within the noise of 50. The notices consumer may so have up to 50 WeChat sends in
  // flight where it had 20 (only fans with a send left are sent: most of a sale's have none);
  // the others stay at 20 (each refund is a WeChat call).
  const batched = { ...o, prefetch: BATCHED_PREFETCH };
  const now = () => d.clock.now();
  // Paid orders delivered together (up to the prefetch) share a ticket transaction.
  const tickets = new TicketIssuer(d, { batchOrdersMax: batched.prefetch, batchInflightMax: 2 });
  d.broker.consume<'order.paid'>(
    'tickets',
    async (m) => void (await tickets.issue(m.orderId, now())),
    batched,
  );
  d.broker.consume<'payment.late'>(
    'late-payments',
    async (m) => void (await handleLatePayment(d, m.orderId, m.paymentId, now())),
    o,
  );
  d.broker.consume<'refund.requested'>('refunds', (m) => d.refunds.execute(m.refundId, now()), o);
  d.broker.consume<'inventory.release'>(
    'inventory',
    async (m) => {
      await d.orders.giveBack(m.sessionId, m.orderId, undefined, m.units);
      if (m.ids) await d.inventory.moveIds(m.sessionId, m.orderId, m.idsTo ?? '', m.ids);
    },
    o,
  );
  // Notices delivered together read their recipients and record their final first states together.
  const notices = {
    db: d.db,
    wechat: d.wechat,
    log: d.log,
    templates: d.config.wechat.templates,
    firstSteps: new NoticeFirstSteps(d.db, d.log, { batchMax: batched.prefetch, inflightMax: 2 }),
  };
  d.broker.consume<'notice.send'>(
    'notices',
    async (m, meta) => void (await sendNotice(notices, m, meta.messageId, now())),
    batched,
  );
}
