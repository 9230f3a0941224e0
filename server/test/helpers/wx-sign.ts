import { createSign, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { testKeys } from '@showtix/wechat-sim';

/** Signs a notification body as WeChat's platform key does (for crafting tampered variants). */
export function wechatHeaders(
  body: string,
  o: { timestamp?: number; nonce?: string; serial?: string; publicKeyMode?: boolean } = {},
): Record<string, string> {
  const timestamp = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = o.nonce ?? randomBytes(16).toString('hex');
  const key = readFileSync(o.publicKeyMode ? testKeys.publicKeyPrivatePath : testKeys.platformPrivateKeyPath);
  const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(key, 'base64');
  return {
    'content-type': 'application/json',
    'wechatpay-serial': o.serial ?? (o.publicKeyMode ? testKeys.publicKeyId : testKeys.platformSerial),
    'wechatpay-signature': signature,
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': nonce,
    'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
  };
}

/** Flips one bit of a base64 value at byte `at` (negative: from the end). */
export function flipBase64(b64: string, at: number): string {
  const buf = Buffer.from(b64, 'base64');
  buf[at < 0 ? buf.length + at : at]! ^= 0x01;
  return buf.toString('base64');
}
