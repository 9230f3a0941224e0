import { formatPriceRange, formatYuan, percentOfFen, sumFen, yuanNumber } from '../../src/utils/money';
import { formatCountdown, formatDateRange, formatDateTime, splitDuration } from '../../src/utils/time';
import { refundFeePercent, refundRuleLines } from '../../src/utils/refund';

describe('money is integer fen, shown as yuan', () => {
  it.each([
    [188_000, '¥1,880'],
    [0, '¥0'],
    [50, '¥0.50'],
    [188_050, '¥1,880.50'],
    [123_456_789, '¥1,234,567.89'],
    [-500, '-¥5'],
  ])('%i fen -> %s', (fen, text) => expect(formatYuan(fen)).toBe(text));

  it('refuses anything but integer fen', () => {
    expect(() => formatYuan(18.8)).toThrow(TypeError);
    expect(() => sumFen([100, 0.5])).toThrow(TypeError);
  });

  it('sums, ranges and fees stay integers', () => {
    expect(sumFen([188_000, 68_000, 68_000])).toBe(324_000);
    expect(formatPriceRange(68_000, 188_000)).toBe('¥680 - ¥1,880');
    expect(formatPriceRange(68_000, 68_000)).toBe('¥680');
    expect(formatPriceRange(null, null)).toBe('');
    expect(yuanNumber(188_000)).toBe('1,880');
    expect(percentOfFen(68_001, 20)).toBe(13_600); // rounded down, in the fan's favour
  });
});

describe('times are Beijing times', () => {
  it('formats an instant whatever the machine zone is', () => {
    expect(formatDateTime('2027-01-15T11:30:00.000Z')).toBe('2027.01.15 周五 19:30');
    expect(formatDateTime('2027-01-15T16:30:00Z')).toBe('2027.01.16 周六 00:30');
  });

  it('formats runs of sessions', () => {
    expect(formatDateRange('2027-01-15T11:30:00Z', '2027-01-17T11:30:00Z')).toBe('2027.01.15 - 01.17');
    expect(formatDateRange('2027-01-15T11:30:00Z', '2027-01-15T12:30:00Z')).toBe('2027.01.15');
    expect(formatDateRange('2026-12-31T11:30:00Z', '2027-01-02T11:30:00Z')).toBe('2026.12.31 - 2027.01.02');
    expect(formatDateRange(null, null)).toBe('日期待定');
  });

  it('counts down in days, hours, minutes and seconds', () => {
    expect(formatCountdown(14 * 60_000 + 59_000)).toBe('14:59');
    expect(formatCountdown(3 * 3600_000 + 4 * 60_000 + 5_000)).toBe('03:04:05');
    expect(formatCountdown(2 * 86_400_000 + 3 * 3600_000)).toBe('2天 03:00:00');
    expect(formatCountdown(-5)).toBe('00:00');
    expect(splitDuration(999)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});

describe('refund rules', () => {
  const rules = [
    { hoursBeforeStart: 48, feePercent: 20 },
    { hoursBeforeStart: 168, feePercent: 0 },
    { hoursBeforeStart: 0, feePercent: 100 },
  ];
  const start = '2027-01-15T11:30:00Z';
  const hoursBefore = (h: number) => new Date(start).getTime() - h * 3600_000;

  it('reads as fan-facing lines, widest window first', () => {
    expect(refundRuleLines(rules)).toEqual([
      '开演前 168 小时以上：免费退票',
      '开演前 48 小时以上：收取票价 20% 手续费',
      '开演前 48 小时内：不支持退票',
    ]);
  });

  it('picks the tier that applies now', () => {
    expect(refundFeePercent(rules, start, hoursBefore(200))).toBe(0);
    expect(refundFeePercent(rules, start, hoursBefore(100))).toBe(20);
    expect(refundFeePercent(rules, start, hoursBefore(10))).toBe(100);
    expect(refundFeePercent(rules, start, hoursBefore(-1))).toBe(100);
    expect(refundFeePercent([], start, hoursBefore(200))).toBe(100);
  });
});
