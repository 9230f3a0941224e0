import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  fitView,
  pointInPolygon,
  sameRow,
  sameSection,
  seatAt,
  seatsInPolygon,
  seatsInRect,
  toWorld,
  zoomAt,
  type PlotSeat,
} from '../../src/seatmap/geometry';

const grid: PlotSeat[] = [];
for (const section of ['A', 'B']) {
  for (let r = 1; r <= 3; r++) {
    for (let n = 1; n <= 4; n++) {
      grid.push({
        id: `${section}-${r}-${n}`,
        section,
        row: String(r),
        number: String(n),
        x: (section === 'A' ? 0 : 100) + n * 10,
        y: r * 12,
      });
    }
  }
}

describe('seat map geometry', () => {
  it('fits the whole map in the canvas, below the stage', () => {
    const v = fitView(boundsOf(grid), 800, 400);
    const [x0, y0] = toWorld(v, 0, 0);
    const [x1, y1] = toWorld(v, 800, 400);
    expect(x0).toBeLessThan(10);
    expect(x1).toBeGreaterThan(140);
    expect(y0).toBeLessThan(12);
    expect(y1).toBeGreaterThan(36);
  });

  it('zooms around the pointer', () => {
    const v = { scale: 2, tx: 10, ty: 20 };
    const z = zoomAt(v, 2, 110, 220);
    expect(toWorld(z, 110, 220)).toEqual(toWorld(v, 110, 220));
  });

  it('hits the seat under the pointer and nothing between seats', () => {
    expect(seatAt(grid, 20.5, 24)?.id).toBe('A-2-2');
    expect(seatAt(grid, 60, 24)).toBeUndefined();
  });

  it('selects by row, section, box and lasso', () => {
    expect(sameRow(grid, grid[0]!)).toEqual(['A-1-1', 'A-1-2', 'A-1-3', 'A-1-4']);
    expect(sameSection(grid, grid[0]!)).toHaveLength(12);
    expect(seatsInRect(grid, [15, 0], [35, 25])).toEqual(['A-1-2', 'A-1-3', 'A-2-2', 'A-2-3']);
    // A triangle above the diagonal y = x - 120 catches only B's top-right corner seat.
    const tri: [number, number][] = [
      [125, 5],
      [150, 5],
      [150, 30],
    ];
    expect(seatsInPolygon(grid, tri)).toEqual(['B-1-4']);
    const quad: [number, number][] = [
      [105, 5],
      [145, 5],
      [145, 30],
      [105, 30],
    ];
    expect(seatsInPolygon(grid, quad)).toHaveLength(8);
    expect(pointInPolygon(0, 0, tri)).toBe(false);
    expect(
      seatsInPolygon(grid, [
        [0, 0],
        [1, 1],
      ]),
    ).toEqual([]);
  });
});
