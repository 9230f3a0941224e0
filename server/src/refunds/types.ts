import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/service';
import type { Conn, Db } from '../db/pool';
import type { OutboxRelay } from '../outbox/relay';
import type { WechatPay } from '../wechat/pay';

/** A payment as refunds see it (the payments record, payments/repo.ts). */
export interface PaidMoney {
  id: string;
  orderId: string;
  transactionId: string;
  amountFen: number;
  refundedFen: number;
  outcome: string;
}

/**
 * What refunds need of the payments record, implemented by payments/ledger.ts and passed in:
 * payments depend on refunds (they ask for them), refunds never import payments.
 */
export interface PaymentLedger {
  byId(db: Db | Conn, paymentId: string, lock?: boolean): Promise<PaidMoney | undefined>;
  /** The payment that paid the order (applied, or a late one honoured), locked. */
  orderPaymentLocked(conn: Conn, orderId: string): Promise<PaidMoney | undefined>;
  /** Counts a refund that succeeded against its payment (its CHECK caps it at the amount paid). */
  addRefunded(conn: Conn, paymentId: string, fen: number): Promise<void>;
}

export interface RefundDeps {
  db: Db;
  pay: WechatPay;
  relay: OutboxRelay;
  catalog: CatalogService;
  log: Logger;
  payments: PaymentLedger;
}

export interface RefundActor {
  kind: 'buyer' | 'admin' | 'system';
  id: string;
}
