/**
 * Seat map navigation (issue 17, walk-through #6), in the engine both builds share: row numbers
 * and section names once zoomed in, the minimap and 全览, the legend's tier filter, and a tap on
 * seats too dense for a finger zooming in instead of picking.
 */
import { SeatMapController, DENSE_PITCH_PX } from '../../src/seatmap/controller';
import { buildModel } from '../../src/seatmap/model';
import { fade } from '../../src/seatmap/labels';
import { denseMap } from './fixtures';

interface Frame {
  texts: { text: string; x: number; y: number }[];
  fills: { color: string; rects: { x: number; y: number }[] }[];
  strokes: { color: string; x: number; y: number; w: number; h: number }[];
}

/** A 2D context that records each frame's texts, seat fills and stroked frames. */
function recorder() {
  const frames: Frame[] = [];
  let path: { x: number; y: number }[] = [];
  const last = () => frames[frames.length - 1]!;
  const ctx = {
    fillStyle: '#000' as unknown,
    strokeStyle: '#000' as unknown,
    lineWidth: 1,
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    setTransform: () => frames.push({ texts: [], fills: [], strokes: [] }),
    clearRect: () => undefined,
    fillRect: () => undefined,
    strokeRect(x: number, y: number, w: number, h: number) {
      last().strokes.push({ color: String(ctx.strokeStyle), x, y, w, h });
    },
    beginPath: () => (path = []),
    rect: (x: number, y: number, w: number, h: number) => path.push({ x: x + w / 2, y: y + h / 2 }),
    fill: () => last().fills.push({ color: String(ctx.fillStyle), rects: path }),
    fillText: (text: string, x: number, y: number) => last().texts.push({ text, x, y }),
    strokeText: () => undefined,
  };
  return { ctx, frames, last };
}

function setup(curve = 0) {
  const rec = recorder();
  const taps: number[] = [];
  const m = buildModel(denseMap(curve));
  const c = new SeatMapController(
    { ctx: rec.ctx as never, width: 375, height: 400, dpr: 1, raf: (cb) => cb() },
    undefined,
    (s) => taps.push(s),
  );
  c.setModel(m);
  return { c, m, rec, taps };
}

const tap = (c: SeatMapController, x: number, y: number) => c.handle({ kind: 'tap', x, y });
const rowNumbers = (f: Frame) => f.texts.filter((t) => /^\d+$/.test(t.text));

it('at fit zoom a tap on dense seats zooms in about the finger instead of picking a seat', () => {
  const { c, m, taps } = setup();
  expect(c.viewInfo()!.pitchPx).toBeLessThan(DENSE_PITCH_PX);
  expect(c.isDense()).toBe(true);
  const seat = m.index.get('0-10-20')!;
  const at = c.seatPoint(seat)!;
  tap(c, at.x, at.y);
  expect(taps).toEqual([]); // nothing picked
  expect(c.viewInfo()!.pitchPx).toBeGreaterThanOrEqual(DENSE_PITCH_PX);
  expect(c.isDense()).toBe(false);
  // The seat under the finger stayed under it: the next tap there picks exactly that seat.
  const now = c.seatPoint(seat)!;
  expect(Math.hypot(now.x - at.x, now.y - at.y)).toBeLessThan(1);
  tap(c, now.x, now.y);
  expect(taps).toEqual([seat]);
});

it('zoomed in, draws row numbers beside the rows and keeps the section name on screen', () => {
  const { c, m, rec } = setup();
  // The overview: seats ~3 px wide, too small for row numbers (or section names: the legend).
  expect(rowNumbers(rec.last())).toEqual([]);
  expect(rec.last().texts.map((t) => t.text)).toEqual(['舞 台']);
  // Zoom into the middle of 内场A区 (its first rows and its name are off screen).
  const mid = c.seatPoint(m.index.get('0-15-20')!)!;
  tap(c, mid.x, mid.y);
  c.zoom(2, mid.x, mid.y);
  const f = rec.last();
  const rows = rowNumbers(f);
  expect(rows.length).toBeGreaterThan(3);
  // Row numbers sit at the rows' heights: each row's number is level with one of its seats.
  for (const r of rows) {
    const y = c.seatPoint(m.index.get(`0-${Number(r.text) - 1}-0`)!)!.y;
    expect(Math.abs(r.y - y)).toBeLessThan(1);
    expect(r.x).toBeGreaterThanOrEqual(0); // pinned to the left edge when the row starts off screen
  }
  const name = f.texts.find((t) => t.text === '内场A区');
  expect(name).toBeDefined();
  expect(name!.y).toBeGreaterThan(0);
  expect(name!.y).toBeLessThan(400);
});

it('a curved row that starts off screen gets its number level with its first seat in view', () => {
  const { c, m, rec } = setup(30); // the ends of each row 30 units above its middle
  const mid = c.seatPoint(m.index.get('0-10-20')!)!;
  tap(c, mid.x, mid.y);
  c.zoom(1.5, mid.x, mid.y);
  const pinned = rowNumbers(rec.last()).filter((t) => t.x < 20);
  expect(pinned.length).toBeGreaterThan(2);
  for (const r of pinned) {
    // The row's leftmost seat on screen (section A: its row number is the label).
    const ys = m.seats
      .map((s, i) => ({ s, p: c.seatPoint(i)! }))
      .filter(({ s, p }) => s.section === '内场A区' && s.row === r.text && p.x >= 14);
    ys.sort((a, b) => a.p.x - b.p.x);
    expect(Math.abs(ys[0]!.p.y - r.y)).toBeLessThan(0.5);
  }
});

it('shows a minimap once zoomed in; a tap on it moves the view there; 全览 returns to the fit', () => {
  const { c, m, rec, taps } = setup();
  expect(c.minimap()).toBeNull();
  const fit = c.viewInfo()!;
  const a = c.seatPoint(m.index.get('0-10-5')!)!;
  tap(c, a.x, a.y); // dense: zooms in
  const box = c.minimap()!;
  expect(box).not.toBeNull();
  expect(box.x + box.w).toBeLessThanOrEqual(375);
  // The red frame: the part of the venue on screen, inside the minimap.
  const frame = rec.last().strokes.find((s) => s.color === '#e4393c')!;
  expect(frame.x).toBeGreaterThanOrEqual(box.x);
  expect(frame.x + frame.w).toBeLessThanOrEqual(box.x + box.w + 0.01);
  // A tap on the minimap's right end brings 内场B区 into view; no seat is picked.
  const b = m.index.get('1-10-35')!;
  expect(c.seatPoint(b)!.x).toBeGreaterThan(375);
  tap(c, box.x + box.w - 12, box.y + box.h / 2);
  const p = c.seatPoint(b)!;
  expect(p.x).toBeGreaterThan(0);
  expect(p.x).toBeLessThan(375);
  expect(taps).toEqual([]);
  c.showAll();
  expect(c.viewInfo()!.scale).toBe(fit.scale);
  expect(c.minimap()).toBeNull();
});

it('the tier filter washes out the other tiers and leaves the selection green', () => {
  const { c, m, rec } = setup();
  const vip = m.index.get('0-0-0')!;
  const stand = m.index.get('0-10-0')!;
  c.setSelected([stand]);
  c.setFilter(0);
  const colourOf = (i: number) => {
    const p = c.seatPoint(i)!;
    return rec
      .last()
      .fills.filter((f) => f.rects.some((r) => Math.abs(r.x - p.x) < 0.01 && Math.abs(r.y - p.y) < 0.01))
      .pop()?.color;
  };
  expect(colourOf(vip)).toBe(m.colors[0]);
  expect(colourOf(m.index.get('0-12-3')!)).toBe(m.faded[1]);
  expect(m.faded[1]).toBe(fade(m.colors[1]!));
  expect(colourOf(stand)).toBe('#16a34a'); // picked before the filter: still shown as picked
  c.setFilter(null);
  expect(colourOf(m.index.get('0-12-3')!)).toBe(m.colors[1]);
});

it('washed-out tier colours stay distinct from the sold/held grey', () => {
  expect(fade('#e4393c')).toBe('#f5c5c7');
  expect(fade('not a colour')).toBe('#ececf1');
});
