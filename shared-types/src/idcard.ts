/** Mainland China resident ID (GB 11643-1999): 17 digits + a mod-11 check character. */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

export function isValidMainlandId(id: string): boolean {
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(id[i]) * WEIGHTS[i]!;
  if (CHECK[sum % 11] !== id[17]) return false;
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** Keeps the first 3 and last 4 characters: 110***********1234. */
export function maskIdNumber(id: string): string {
  if (id.length <= 7) return '*'.repeat(id.length);
  return id.slice(0, 3) + '*'.repeat(id.length - 7) + id.slice(-4);
}

/** 张三 -> 张*, 欧阳娜娜 -> 欧**娜 */
export function maskName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= 1) return name;
  if (chars.length === 2) return chars[0] + '*';
  return chars[0] + '*'.repeat(chars.length - 2) + chars[chars.length - 1];
}

/**
 * One spelling per ID number: full-width characters folded (NFKC), spaces, hyphens and
 * brackets dropped, letters upper-cased. "a123456(7)" and "A1234567" are the same document.
 */
export function normalizeIdNumber(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/[\s\-()[\]]/g, '')
    .toUpperCase();
}

/**
 * What a normalised number of each document type looks like. 港澳居民来往内地通行证: H or M and
 * 8 digits (older cards 10); 台湾居民来往大陆通行证: 8 digits (older cards 10, with a check letter);
 * a passport: 5-17 letters and digits with at least one digit (no "AAAAA").
 */
const ID_PATTERNS: Record<string, (n: string) => boolean> = {
  id_card: isValidMainlandId,
  passport: (n) => /^(?=[A-Z]*\d)[A-Z0-9]{5,17}$/.test(n) && !/^(.)\1+$/.test(n),
  hk_macau_permit: (n) => /^[HM]\d{8}(\d{2})?$/.test(n),
  taiwan_permit: (n) => /^\d{8}(\d{2}[A-Z]?)?$/.test(n),
};

export const ID_FORMAT_MESSAGES: Record<string, string> = {
  id_card: '身份证号码校验失败',
  passport: '护照号码格式不正确',
  hk_macau_permit: '港澳居民来往内地通行证号码格式不正确（H 或 M 开头加 8 位数字）',
  taiwan_permit: '台湾居民来往大陆通行证号码格式不正确（8 位数字）',
};

/** Whether a normalised number has the form of its document type. */
export function isValidIdNumber(idType: string, normalized: string): boolean {
  return ID_PATTERNS[idType]?.(normalized) ?? false;
}
