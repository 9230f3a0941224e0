import { randomBytes, randomUUID } from 'node:crypto';
import type { LoadedKeys } from './keys';
import type { Poster } from './http-post';
import type { SignOptions, Signer } from './signer';
import type { NotificationKind, NotificationRecord, Order, Refund, Store } from './store';
import type { TimerSet } from './timers';
import { rfc3339 } from './time';
import { refundNotifyResource, transactionNotifyResource } from './views';
import { aesGcmEncrypt, randomAlnum } from './wxcrypto';

/** WeChat's documented retry delays after a failed delivery (15 retries, about 24 h). */
export const RETRY_SCHEDULE_SECONDS = [
  15, 15, 30, 180, 600, 1200, 1800, 1800, 1800, 3600, 10800, 10800, 10800, 21600, 21600,
];

export interface NotifierDeps {
  store: Store;
  signer: Signer;
  keys: LoadedKeys;
  timers: TimerSet;
  poster: Poster;
  retryScale: number;
  timeoutMs: number;
}

export interface NotificationSpec {
  kind: NotificationKind;
  event_type: string;
  summary: string;
  original_type: 'transaction' | 'refund';
  url: string;
  plaintext: Record<string, unknown>;
  out_trade_no?: string;
  out_refund_no?: string;
  associatedData?: string;
  apiV3Key?: string;
}

const REFUND_EVENTS = {
  SUCCESS: { event_type: 'REFUND.SUCCESS', summary: '退款成功' },
  ABNORMAL: { event_type: 'REFUND.ABNORMAL', summary: '退款异常' },
  CLOSED: { event_type: 'REFUND.CLOSED', summary: '退款关闭' },
} as const;

export function isDelivered(status: number): boolean {
  return status === 200 || status === 204;
}

export class Notifier {
  private held: NotificationRecord[] = [];

  constructor(private readonly d: NotifierDeps) {}

  notifyTransaction(order: Order): NotificationRecord {
    return this.emit({
      kind: 'transaction',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      original_type: 'transaction',
      url: order.notify_url,
      out_trade_no: order.out_trade_no,
      plaintext: transactionNotifyResource(order, this.d.store.faults.wrongAmount),
    });
  }

  notifyRefund(refund: Refund): NotificationRecord | undefined {
    if (!refund.notify_url || refund.status === 'PROCESSING') return undefined;
    return this.emit({
      kind: 'refund',
      ...REFUND_EVENTS[refund.status],
      original_type: 'refund',
      url: refund.notify_url,
      out_trade_no: refund.out_trade_no,
      out_refund_no: refund.out_refund_no,
      plaintext: refundNotifyResource(refund, this.d.keys.mchid, this.d.store.faults.wrongAmount),
    });
  }

  /** Encrypts the resource and lays out the v3 notification body exactly as WeChat does. */
  build(spec: NotificationSpec): NotificationRecord {
    const nonce = randomAlnum(12);
    const associatedData = spec.associatedData ?? spec.original_type;
    const plaintext = JSON.stringify(spec.plaintext);
    const id = randomUUID();
    const createdAt = rfc3339(Date.now());
    const body = JSON.stringify({
      id,
      create_time: createdAt,
      resource_type: 'encrypt-resource',
      event_type: spec.event_type,
      summary: spec.summary,
      resource: {
        original_type: spec.original_type,
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: aesGcmEncrypt(spec.apiV3Key ?? this.d.keys.apiV3Key, nonce, associatedData, plaintext),
        associated_data: associatedData,
        nonce,
      },
    });
    return this.record(spec, id, body, createdAt);
  }

  record(
    spec: Omit<NotificationSpec, 'summary' | 'original_type'>,
    id: string,
    body: string,
    createdAt: string,
  ) {
    const record: NotificationRecord = {
      seq: this.d.store.nextSeq(),
      id,
      kind: spec.kind,
      event_type: spec.event_type,
      out_trade_no: spec.out_trade_no,
      out_refund_no: spec.out_refund_no,
      url: spec.url,
      body,
      plaintext: spec.plaintext,
      createdAt,
      copies: 1,
      state: 'pending',
      attempts: [],
    };
    this.d.store.notifications.push(record);
    return record;
  }

  private emit(spec: NotificationSpec): NotificationRecord {
    const faults = this.d.store.faults;
    const record = this.build(spec);
    record.copies = faults.duplicate;
    if (faults.drop) {
      record.state = 'dropped';
      return record;
    }
    if (faults.outOfOrder >= 2) {
      record.state = 'held';
      this.held.push(record);
      if (this.held.length >= faults.outOfOrder) void this.flush();
      return record;
    }
    void this.dispatch(record);
    return record;
  }

  /** Delivers held notifications newest first, each one's first attempt after the previous one's. */
  async flush(): Promise<void> {
    const batch = this.held.reverse();
    this.held = [];
    for (const record of batch) {
      record.state = 'pending';
      await this.dispatch(record);
    }
  }

  /** Resolves once every copy made its first attempt (retries continue on timers). */
  private async dispatch(record: NotificationRecord): Promise<void> {
    const faults = this.d.store.faults;
    if (faults.delayMs > 0) await this.d.timers.sleep(faults.delayMs);
    if (faults.signtest) await this.probe(record);
    const copies = Array.from({ length: record.copies }, (_, copy) => this.attempt(record, copy, 0));
    await Promise.all(copies);
  }

  private async attempt(record: NotificationRecord, copy: number, attempt: number): Promise<void> {
    const headers = this.d.signer.headers(record.body);
    const result = await this.d.poster.post(record.url, record.body, headers, this.d.timeoutMs);
    if (this.d.timers.isClosed) return;
    record.attempts.push({
      copy,
      attempt,
      at: rfc3339(Date.now()),
      serial: headers['Wechatpay-Serial'],
      status: result.status,
      error: result.error,
      responseBody: result.body || undefined,
    });
    if (isDelivered(result.status)) {
      record.state = 'delivered';
      return;
    }
    if (attempt >= RETRY_SCHEDULE_SECONDS.length) {
      if (record.state !== 'delivered') record.state = 'failed';
      return;
    }
    const delay = Math.round(RETRY_SCHEDULE_SECONDS[attempt] * 1000 * this.d.retryScale);
    this.d.timers.after(delay, () => void this.attempt(record, copy, attempt + 1));
  }

  /** WeChat's probe: same body, signature WECHATPAY/SIGNTEST/...; the merchant must reject it. */
  private async probe(record: NotificationRecord): Promise<void> {
    const probe = this.record({ ...record, kind: 'signtest' }, record.id, record.body, record.createdAt);
    const signature = `WECHATPAY/SIGNTEST/${randomBytes(192).toString('base64')}`;
    await this.sendOnce(probe, { signature });
  }

  /** One delivery, no retries: for probes and raw/replayed notifications. */
  async sendOnce(record: NotificationRecord, sign: SignOptions = {}) {
    const headers = this.d.signer.headers(record.body, sign);
    const result = await this.d.poster.post(record.url, record.body, headers, this.d.timeoutMs);
    record.attempts.push({
      copy: 0,
      attempt: 0,
      at: rfc3339(Date.now()),
      serial: headers['Wechatpay-Serial'],
      status: result.status,
      error: result.error,
      responseBody: result.body || undefined,
    });
    record.state = isDelivered(result.status) ? 'delivered' : 'failed';
    return { ...result, headers, record };
  }

  heldCount(): number {
    return this.held.length;
  }
}
