/**
 * Money is integer fen everywhere (as the API sends it); only display turns it into yuan.
 * No float arithmetic: the fen part is split off with % and the rest divides exactly by 100.
 */
export function assertFen(fen: number): void {
  if (!Number.isSafeInteger(fen)) throw new TypeError(`amount must be integer fen, got ${fen}`);
}

/** "1234567" -> "1,234,567": yuan amounts, and places in the waiting room. */
export function groupThousands(digits: string | number): string {
  return String(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** 188000 -> "¥1,880"; 188050 -> "¥1,880.50"; -500 -> "-¥5". */
export function formatYuan(fen: number): string {
  assertFen(fen);
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  const cents = abs % 100;
  const yuan = (abs - cents) / 100;
  const tail = cents === 0 ? '' : `.${String(cents).padStart(2, '0')}`;
  return `${sign}¥${groupThousands(String(yuan))}${tail}`;
}

/** The number only, for price tags that draw the ¥ sign smaller: 188000 -> "1,880". */
export function yuanNumber(fen: number): string {
  return formatYuan(fen).replace('¥', '');
}

export function sumFen(amounts: readonly number[]): number {
  let total = 0;
  for (const a of amounts) {
    assertFen(a);
    total += a;
  }
  return total;
}

/** "¥380 - ¥1,880", "¥680" for a single price, "" when there are no prices yet. */
export function formatPriceRange(minFen: number | null, maxFen: number | null): string {
  if (minFen === null || maxFen === null) return '';
  if (minFen === maxFen) return formatYuan(minFen);
  return `${formatYuan(minFen)} - ${formatYuan(maxFen)}`;
}

/** Fee of a refund in fen, rounded down in the fan's favour: price 68000 at 20% -> 13600. */
export function percentOfFen(fen: number, percent: number): number {
  assertFen(fen);
  return Math.floor((fen * percent) / 100);
}
