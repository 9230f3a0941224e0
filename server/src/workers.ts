import type { AppDeps } from './app';
import { sendNotice } from './notices/consumer';
import { handleLatePayment } from './payments/late';
import { issueTickets } from './tickets/service';

/** Queue names of the consumers below (tests delete them with their prefix). */
export const CONSUMERS = ['tickets', 'late-payments', 'refunds', 'inventory', 'notices'] as const;

/**
 * The RabbitMQ consumers of one instance. Every handler is idempotent: RabbitMQ may deliver a
 * message twice (relay crash after publishing, consumer crash before acking).
 */
export function startConsumers(d: AppDeps): void {
  const o = { prefetch: 20, attemptsMax: d.config.consumerAttemptsMax, backoffMs: d.config.consumerBackoffMs };
  const now = () => d.clock.now();
  d.broker.consume('tickets', 'order.paid', async (m) => void (await issueTickets(d, m.orderId, now())), o);
  d.broker.consume('late-payments', 'payment.late', async (m) => void (await handleLatePayment(d, m.orderId, m.paymentId, now())), o);
  d.broker.consume('refunds', 'refund.requested', (m) => d.refunds.execute(m.refundId, now()), o);
  d.broker.consume('inventory', 'inventory.release', (m) => d.orders.releaseInventory(m.sessionId, m.orderId), o);
  d.broker.consume(
    'notices',
    'notice.send',
    (m, meta) => sendNotice({ db: d.db, wechat: d.wechat, log: d.log, templateId: d.config.wechat.ticketTemplateId }, m, meta.messageId),
    o,
  );
}
