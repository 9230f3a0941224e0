import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WechatConfig } from '../config/wechat';

/**
 * Keys that may sign what WeChat sends us, by the serial it names in Wechatpay-Serial: platform
 * certificates (certificate mode) and the WeChat Pay public key (public-key mode). Both are
 * accepted, since during a merchant's switch callbacks arrive in either mode at random. An
 * unknown serial is refused; certificates are never fetched on demand (that would let anyone
 * make us call out by sending a made-up serial).
 */
export function trustedWechatKeys(c: WechatConfig): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const p of c.platformCertPaths) {
    const cert = new X509Certificate(readFileSync(p));
    keys.set(cert.serialNumber.toUpperCase(), cert.publicKey);
  }
  if (c.payPublicKeyPath && c.payPublicKeyId)
    keys.set(c.payPublicKeyId, createPublicKey(readFileSync(c.payPublicKeyPath)));
  return keys;
}
