import { z } from 'zod';

/** A mainland mobile number: 11 digits, 1 then 3-9. */
export const MOBILE_RE = /^1[3-9]\d{9}$/;

/** '+86 138-0013-8000' -> '13800138000': what fans and support staff type, as one form. */
export function normalizePhone(raw: string): string {
  return raw.replace(/[\s-]/g, '').replace(/^(\+?86)(?=1\d{10}$)/, '');
}

/** 13800138000 -> 138****8000 */
export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '*'.repeat(phone.length);
}

/** The order's contact number (联系手机), normalised, then checked as a mainland mobile. */
export const PhoneSchema = z
  .string()
  .max(20)
  .transform(normalizePhone)
  .pipe(z.string().regex(MOBILE_RE, '请输入正确的 11 位手机号'));
