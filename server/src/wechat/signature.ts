import { createDecipheriv, createVerify, type KeyObject } from 'node:crypto';

/** WeChat Pay v3 signature over `timestamp\nnonce\nbody\n`, checked against a trusted key. */
export interface SignedMessage {
  serial: string;
  signature: string;
  timestamp: string;
  nonce: string;
  body: string;
}

export type SignatureVerdict = 'ok' | 'missing' | 'stale' | 'unknown_serial' | 'probe' | 'bad_signature';

/** Timestamps 5 minutes or more away from our clock are refused (replays, skewed senders). */
export const MAX_SKEW_S = 300;

export function verifyWechatSignature(
  m: SignedMessage,
  keys: Map<string, KeyObject>,
  nowMs: number,
): SignatureVerdict {
  if (!m.serial || !m.signature || !m.timestamp || !m.nonce) return 'missing';
  if (!/^\d{1,12}$/.test(m.timestamp) || Math.abs(nowMs / 1000 - Number(m.timestamp)) >= MAX_SKEW_S)
    return 'stale';
  if (m.signature.startsWith('WECHATPAY/SIGNTEST/')) return 'probe';
  const key = keys.get(m.serial);
  if (!key) return 'unknown_serial';
  const ok = createVerify('RSA-SHA256')
    .update(`${m.timestamp}\n${m.nonce}\n${m.body}\n`)
    .verify(key, m.signature, 'base64');
  return ok ? 'ok' : 'bad_signature';
}

export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  nonce: string;
  associated_data?: string;
}

/**
 * AEAD_AES_256_GCM with the APIv3 key. `final()` checks the 16-byte tag at the end of the
 * ciphertext: a forged tag or wrong associated data throws (wechatpay-node-v3's decipher_gcm
 * skips this check, so it is not used).
 */
export function decryptResource(r: EncryptedResource, apiV3Key: string): string {
  if (r.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unsupported algorithm ${r.algorithm}`);
  const data = Buffer.from(r.ciphertext, 'base64');
  if (data.length < 17) throw new Error('ciphertext too short');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(r.nonce, 'utf8'),
  );
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}
