/**
 * Phone numbers as plain functions, no zod: the fan app's start bundle imports this
 * (phone.ts re-exports it beside PhoneSchema for everyone else).
 */

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
