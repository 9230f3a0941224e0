import { randomBytes, randomInt } from 'node:crypto';
import { beijingDate } from './time';

function digits(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(randomInt(10));
  return out;
}

function compactDate(ms: number): string {
  return beijingDate(ms).replace(/-/g, '');
}

/** 28 digits starting with 4200, like real WeChat Pay transaction ids. */
export function newTransactionId(now = Date.now()): string {
  return `4200${digits(6)}${compactDate(now)}${digits(10)}`;
}

/** 29 digits starting with 50, like real refund ids. */
export function newRefundId(): string {
  return `50${digits(27)}`;
}

/** wx + yyyyMMddHHmmss + 20 hex, like real prepay ids (36 chars). */
export function newPrepayId(now = Date.now()): string {
  const stamp = new Date(now + 8 * 3600 * 1000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `wx${stamp}${randomBytes(10).toString('hex')}`;
}

/** 28 characters starting with "o", like real mini-program openids. */
export function newOpenid(): string {
  return `o${randomBytes(21).toString('base64url').slice(0, 27)}`;
}

/** wx.login codes are 32 characters. */
export function newLoginCode(): string {
  return randomBytes(24).toString('base64url').slice(0, 32);
}

/** session_key is 16 bytes, base64. */
export function newSessionKey(): string {
  return randomBytes(16).toString('base64');
}

export function newAccessToken(): string {
  return `SIM_${randomBytes(60).toString('base64url')}`;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}
