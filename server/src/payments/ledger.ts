import type { PaymentLedger } from '../refunds/types';
import { addRefunded, findPayment } from './repo';

/** The payments record as the refunds service uses it (see PaymentLedger: why it is passed in). */
export const paymentLedger: PaymentLedger = {
  byId: (db, paymentId, lock = false) => findPayment(db, 'id = ?', [paymentId], lock),
  orderPaymentLocked: (conn, orderId) =>
    findPayment(conn, "order_id = ? AND outcome IN ('applied', 'late_applied')", [orderId], true),
  addRefunded,
};
