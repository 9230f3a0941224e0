import { BlockSpecSchema } from '@showtix/shared-types';
import { parseCsv, seatsToCsv } from '../../src/catalog/venues/csv';
import { checkLayout } from '../../src/catalog/venues/layout';
import { blockSeats, generateBlock, rowLabel, seatNumber } from '../../src/catalog/layout';

const spec = (o: object) => BlockSpecSchema.parse({ section: 'A', rows: 3, seatsPerRow: 8, ...o });

describe('venue grid generator', () => {
  it('lays out plain and curved blocks exactly as the catalog generator does', () => {
    for (const o of [{}, { curve: 30 }, { gaps: [3, 4], originX: 50, originY: 20 }]) {
      const b = spec(o);
      expect(generateBlock(b)).toEqual(blockSeats({ ...b }));
    }
  });

  it('numbers seats left to right, right to left, or odd/even from the centre', () => {
    expect([1, 2, 3, 4, 5, 6].map((p) => seatNumber(p, 6, 'ltr'))).toEqual([1, 2, 3, 4, 5, 6]);
    expect([1, 2, 3, 4, 5, 6].map((p) => seatNumber(p, 6, 'rtl'))).toEqual([6, 5, 4, 3, 2, 1]);
    expect([1, 2, 3, 4, 5, 6].map((p) => seatNumber(p, 6, 'odd-even'))).toEqual([6, 4, 2, 1, 3, 5]);
    expect([1, 2, 3, 4, 5].map((p) => seatNumber(p, 5, 'odd-even'))).toEqual([4, 2, 1, 3, 5]);
  });

  it('labels rows with numbers or letters from any first row', () => {
    expect([0, 1, 25, 26, 27].map((i) => rowLabel(i, 'letter', 1))).toEqual(['A', 'B', 'Z', 'AA', 'AB']);
    expect(rowLabel(0, 'number', 5)).toBe('5');
  });

  it('widens fan-shaped blocks symmetrically and leaves cross aisles', () => {
    const seats = generateBlock(spec({ rows: 3, seatsPerRow: 4, widenPerRow: 2, rowAisles: [1] }));
    const rows = ['1', '2', '3'].map((r) => seats.filter((s) => s.row === r));
    expect(rows.map((r) => r.length)).toEqual([4, 6, 8]);
    const centre = (r: { x: number }[]) => (r[0]!.x + r[r.length - 1]!.x) / 2;
    expect(new Set(rows.map(centre)).size).toBe(1);
    // Row 2 sits two row pitches behind row 1 (cross aisle), row 3 one behind row 2.
    expect(rows[1]![0]!.y - rows[0]![0]!.y).toBe(24);
    expect(rows[2]![0]!.y - rows[1]![0]!.y).toBe(12);
  });

  it('finds duplicate labels and overlapping seats', () => {
    const a = generateBlock(spec({}));
    expect(checkLayout([...a, ...a])).toEqual({
      duplicates: expect.arrayContaining(['A区1排1号']),
      overlaps: 24,
    });
  });
});

describe('layout CSV', () => {
  it('round-trips quotes, commas and Chinese names', () => {
    const seats = [{ section: '看台"东",1', row: '1', number: '2', x: 10, y: -5 }];
    const rows = parseCsv(seatsToCsv(seats));
    expect(rows).toEqual([
      ['section', 'row', 'number', 'x', 'y'],
      ['看台"东",1', '1', '2', '10', '-5'],
    ]);
  });
});
