import { createCipheriv, createSign, createVerify, KeyObject, randomBytes, randomInt } from 'node:crypto';

export const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random alphanumeric string, used for nonces (notification nonces must be 12 characters). */
export function randomAlnum(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[randomInt(ALNUM.length)];
  return out;
}

/** Random upper-case hex string, like WeChat's Wechatpay-Nonce. */
export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length)
    .toUpperCase();
}

/** The message WeChat signs on responses and notifications. */
export function responseMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

/** The message a merchant signs for its Authorization header (url = path + query as sent). */
export function requestMessage(
  method: string,
  url: string,
  timestamp: string,
  nonce: string,
  body: string,
): string {
  return `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
}

export function rsaSign(privateKey: KeyObject | string, message: string): string {
  return createSign('RSA-SHA256').update(message).sign(privateKey, 'base64');
}

export function rsaVerify(publicKey: KeyObject | string, message: string, signature: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(publicKey, signature, 'base64');
  } catch {
    return false; // malformed signature or key: simply not valid
  }
}

/** AEAD_AES_256_GCM as WeChat uses it: base64(ciphertext || 16-byte tag). */
export function aesGcmEncrypt(
  apiV3Key: string,
  nonce: string,
  associatedData: string,
  plaintext: string,
): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([body, cipher.getAuthTag()]).toString('base64');
}

export interface AuthorizationParams {
  mchid?: string;
  nonce_str?: string;
  signature?: string;
  timestamp?: string;
  serial_no?: string;
}

/** Parses `WECHATPAY2-SHA256-RSA2048 k="v",...` in any parameter order; null when malformed. */
export function parseAuthorization(header: string | undefined): AuthorizationParams | null {
  if (!header) return null;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space) !== AUTH_SCHEME) return null;
  const params: Record<string, string> = {};
  const re = /\s*([a-z_]+)="([^"]*)"\s*(,|$)/gy;
  const rest = header.slice(space + 1).trim();
  let consumed = 0;
  let m: RegExpExecArray | null;
  while (consumed < rest.length && (m = re.exec(rest)) !== null) {
    params[m[1]] = m[2];
    consumed = re.lastIndex;
  }
  if (consumed !== rest.length) return null;
  return params;
}
