/** Money travels as integer fen; people read and type yuan. */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  const yuan = Math.floor(abs / 100).toLocaleString('zh-CN');
  const cents = abs % 100;
  return `${sign}¥${yuan}${cents ? `.${String(cents).padStart(2, '0')}` : ''}`;
}

/** Parses what a person typed in yuan ("1,880.5") into fen, or undefined if it is not money. */
export function yuanToFen(input: string | number | null | undefined): number | undefined {
  if (input === null || input === undefined) return undefined;
  const text = String(input).replace(/[,，\s¥￥]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return undefined;
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
