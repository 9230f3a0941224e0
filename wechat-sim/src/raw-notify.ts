import { randomUUID } from 'node:crypto';
import type { Notifier, NotificationSpec } from './notifier';
import type { PostResult } from './http-post';
import type { SigningMode } from './signer';
import type { NotificationRecord, Store } from './store';
import { SimError } from './errors';
import { rfc3339 } from './time';
import { refundNotifyResource, transactionNotifyResource } from './views';

/** Options of sendRawNotification / POST /sim/notify (for replay and tampering tests). */
export interface RawNotificationOptions {
  /** Build from this order's current state (a TRANSACTION.* notification). */
  outTradeNo?: string;
  /** Build from this refund's current state (a REFUND.* notification). */
  outRefundNo?: string;
  /** Target; defaults to the order's / refund's notify_url. */
  url?: string;
  eventType?: string;
  summary?: string;
  /** Shallow-merged over the plaintext before encryption (e.g. {trade_state: 'NOTPAY'}). */
  resource?: Record<string, unknown>;
  /** Resend the exact body of the latest notification sent for this order / refund. */
  replayLast?: boolean;
  /** Send this exact body (nothing is built); still signed unless signature is given. */
  body?: string;
  associatedData?: string;
  /** Encrypt with another APIv3 key (the merchant's decryption must then fail). */
  apiV3Key?: string;
  /** Sign with this Wechatpay-Timestamp (seconds), e.g. ten minutes ago. */
  timestamp?: number;
  nonce?: string;
  /** Send this Wechatpay-Signature instead of a valid one. */
  signature?: string;
  /** Send this Wechatpay-Serial instead of the signing key's. */
  serial?: string;
  /** Force the signing key regardless of keyMode. */
  mode?: SigningMode;
}

export interface RawNotificationResult extends PostResult {
  /** The headers and body that were sent. */
  headers: Record<string, string>;
  sentBody: string;
  notificationId: string;
}

/** The events a raw notification is when the test names none. */
const SUCCESS = {
  transaction: { event_type: 'TRANSACTION.SUCCESS', summary: '支付成功' },
  refund: { event_type: 'REFUND.SUCCESS', summary: '退款成功' },
} as const;

export class RawNotifier {
  constructor(
    private readonly store: Store,
    private readonly notifier: Notifier,
    private readonly mchid: string,
  ) {}

  async send(opts: RawNotificationOptions): Promise<RawNotificationResult> {
    const record = this.buildRecord(opts);
    const sent = await this.notifier.sendOnce(record, {
      timestamp: opts.timestamp,
      nonce: opts.nonce,
      signature: opts.signature,
      serial: opts.serial,
      mode: opts.mode,
    });
    return {
      status: sent.status,
      body: sent.body,
      error: sent.error,
      headers: sent.headers,
      sentBody: record.body,
      notificationId: record.id,
    };
  }

  private buildRecord(opts: RawNotificationOptions): NotificationRecord {
    if (opts.replayLast) return this.replay(opts);
    const spec = this.spec(opts);
    if (opts.body !== undefined) {
      return this.notifier.record(spec, randomUUID(), opts.body, rfc3339(Date.now()));
    }
    return this.notifier.build(spec);
  }

  private replay(opts: RawNotificationOptions): NotificationRecord {
    const last = [...this.store.notifications]
      .reverse()
      .find(
        (n) =>
          n.kind !== 'signtest' &&
          n.kind !== 'raw' &&
          (opts.outRefundNo ? n.out_refund_no === opts.outRefundNo : n.out_trade_no === opts.outTradeNo),
      );
    if (!last) throw new SimError(404, 'NOTIFICATION_NOT_FOUND', 'no earlier notification to replay');
    return this.notifier.record(
      { ...last, kind: 'raw', url: opts.url ?? last.url },
      last.id,
      last.body,
      last.createdAt,
    );
  }

  private spec(opts: RawNotificationOptions): NotificationSpec {
    if (opts.outRefundNo) {
      const refund = this.store.refunds.get(opts.outRefundNo);
      if (!refund) throw new SimError(404, 'REFUND_NOT_FOUND', `unknown out_refund_no ${opts.outRefundNo}`);
      return {
        ...this.event(opts, 'refund', refund.notify_url),
        out_trade_no: refund.out_trade_no,
        out_refund_no: refund.out_refund_no,
        plaintext: { ...refundNotifyResource(refund, this.mchid), ...opts.resource },
      };
    }
    const order = opts.outTradeNo ? this.store.orders.get(opts.outTradeNo) : undefined;
    if (!order) throw new SimError(404, 'ORDER_NOT_FOUND', `unknown out_trade_no ${String(opts.outTradeNo)}`);
    return {
      ...this.event(opts, 'transaction', order.notify_url),
      out_trade_no: order.out_trade_no,
      plaintext: { ...transactionNotifyResource(order), ...opts.resource },
    };
  }

  /** What a raw notification says besides its resource: the success event unless told otherwise. */
  private event(opts: RawNotificationOptions, type: 'transaction' | 'refund', notifyUrl: string | undefined) {
    return {
      kind: 'raw' as const,
      associatedData: opts.associatedData,
      apiV3Key: opts.apiV3Key,
      event_type: opts.eventType ?? SUCCESS[type].event_type,
      summary: opts.summary ?? SUCCESS[type].summary,
      original_type: type,
      url: this.url(opts.url ?? notifyUrl),
    };
  }

  private url(url: string | undefined): string {
    if (!url) throw new SimError(400, 'NO_NOTIFY_URL', 'no notify_url known; pass url');
    return url;
  }
}
