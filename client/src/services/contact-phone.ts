import { PhoneSchema } from './schemas';
import { KEYS, readString, write } from './storage';

/** The number the fan last ordered with, or '' for a first order. */
export function rememberedPhone(): string {
  return readString(KEYS.contactPhone) ?? '';
}

export function rememberPhone(phone: string): void {
  write(KEYS.contactPhone, phone);
}

export type PhoneCheck = { ok: true; phone: string } | { ok: false; error: string };

/**
 * The shared PhoneSchema (the server runs the same one) decides; its normalised form is what
 * the order carries, so '138 0013 8000' and '13800138000' are one and the same request.
 */
export function checkPhone(raw: string): PhoneCheck {
  // An empty field is a missing answer, not a wrong one: say so.
  if (!raw.trim()) return { ok: false, error: '请填写联系手机' };
  const r = PhoneSchema.safeParse(raw);
  if (r.success) return { ok: true, phone: r.data };
  return { ok: false, error: r.error.issues[0]?.message ?? '请输入正确的 11 位手机号' };
}
