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
