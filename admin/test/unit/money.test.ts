import { describe, expect, it } from 'vitest';
import { fenToYuan, yuanToFen } from '../../src/utils/money';

describe('money', () => {
  it('shows fen as yuan with thousands separators and only the cents that exist', () => {
    expect(fenToYuan(188_000)).toBe('¥1,880');
    expect(fenToYuan(68_050)).toBe('¥680.50');
    expect(fenToYuan(5)).toBe('¥0.05');
    expect(fenToYuan(-100)).toBe('-¥1');
  });

  it('reads typed yuan into integer fen without floating point drift', () => {
    expect(yuanToFen('1,880')).toBe(188_000);
    expect(yuanToFen('0.29')).toBe(29); // 0.29 * 100 is 28.999… in floating point
    expect(yuanToFen(680.5)).toBe(68_050);
    expect(yuanToFen('¥ 12.3')).toBe(1_230);
    expect(yuanToFen('1.234')).toBeUndefined();
    expect(yuanToFen('-1')).toBeUndefined();
    expect(yuanToFen('')).toBeUndefined();
  });
});
