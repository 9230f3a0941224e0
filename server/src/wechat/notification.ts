import type { KeyObject } from 'node:crypto';
import { decryptResource, verifyWechatSignature, type EncryptedResource } from './signature';

/** Why a notification was refused; WeChat gets a 4xx FAIL and retries on its schedule. */
export class NotificationRejected extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface WechatNotification<T> {
  id: string;
  eventType: string;
  resource: T;
}

type Headers = Record<string, string | string[] | undefined>;

const header = (h: Headers, name: string): string => {
  const v = h[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/**
 * A v3 notification, checked in the order the rules require: signature over the raw body as
 * received (both key modes, 5-minute window, probes refused), then AEAD_AES_256_GCM with the tag
 * checked. Nothing is parsed before the signature holds.
 */
export function readNotification<T>(
  headers: Headers,
  rawBody: string | undefined,
  keys: Map<string, KeyObject>,
  apiV3Key: string,
  nowMs: number,
): WechatNotification<T> {
  if (rawBody === undefined || rawBody === '') throw new NotificationRejected(400, 'empty body');
  const verdict = verifyWechatSignature(
    {
      serial: header(headers, 'wechatpay-serial'),
      signature: header(headers, 'wechatpay-signature'),
      timestamp: header(headers, 'wechatpay-timestamp'),
      nonce: header(headers, 'wechatpay-nonce'),
      body: rawBody,
    },
    keys,
    nowMs,
  );
  if (verdict !== 'ok') throw new NotificationRejected(401, `signature ${verdict}`);
  let body: { id?: string; event_type?: string; resource?: EncryptedResource };
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new NotificationRejected(400, 'body is not JSON');
  }
  if (!body.resource || typeof body.event_type !== 'string')
    throw new NotificationRejected(400, 'no resource');
  let plain: string;
  try {
    plain = decryptResource(body.resource, apiV3Key);
  } catch (err) {
    throw new NotificationRejected(400, `resource does not decrypt: ${(err as Error).message}`);
  }
  return { id: String(body.id ?? ''), eventType: body.event_type, resource: JSON.parse(plain) as T };
}
