import type { PaymentLedger } from '../refunds/types';
import { addRefunded, payments } from './repo';

/** The payments record as the refunds service uses it (see PaymentLedger: why it is passed in). */
export const paymentLedger: PaymentLedger = {
  byId: (db, paymentId, lock = false) => payments.byId(db, paymentId, { lock }),
  orderPaymentLocked: (conn, orderId) => payments.appliedOfOrderLocked(conn, orderId),
  addRefunded,
};
