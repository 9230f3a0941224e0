import { buildModel, HELD, seatAt, seatLabel, SOLD } from '../../src/seatmap/model';
import { selectionTotalFen, toggleSeat } from '../../src/seatmap/selection';
import { applyDelta, applyStates } from '../../src/seatmap/states';
import { composeSeatMap } from '../../src/seatmap/compose';
import { fitView, toScreen, toWorld, zoomAt } from '../../src/seatmap/viewport';
import { GestureTracker } from '../../src/seatmap/gesture';
import { seatMap } from './fixtures';

const idx = (m: ReturnType<typeof buildModel>, id: string) => m.index.get(id)!;

describe('seat selection rules', () => {
  it('selects available seats up to the purchase limit and toggles them off', () => {
    const m = buildModel(seatMap());
    let sel: number[] = [];
    for (const id of ['s1', 's2']) {
      const r = toggleSeat(m, sel, idx(m, id), 2);
      expect(r.ok).toBe(true);
      if (r.ok) sel = r.selected;
    }
    const over = toggleSeat(m, sel, idx(m, 's3'), 2);
    expect(over).toEqual({ ok: false, reason: 'limit', message: '本场每单限购 2 张' });
    const off = toggleSeat(m, sel, idx(m, 's1'), 2);
    expect(off.ok && off.selected).toEqual([idx(m, 's2')]);
  });

  it('refuses held and sold seats with the reason', () => {
    const m = buildModel(seatMap({ s5: 'held', s6: 'sold' }));
    expect(toggleSeat(m, [], idx(m, 's5'), 4)).toMatchObject({
      ok: false,
      reason: 'unavailable',
      message: '该座位已被锁定，请选择其他座位',
    });
    expect(toggleSeat(m, [], idx(m, 's6'), 4)).toMatchObject({
      ok: false,
      reason: 'unavailable',
      message: '该座位已售出，请选择其他座位',
    });
  });

  it('keeps a running total in integer fen', () => {
    const m = buildModel(seatMap());
    expect(selectionTotalFen(m, [])).toBe(0);
    expect(selectionTotalFen(m, [idx(m, 's1'), idx(m, 's11'), idx(m, 's12')])).toBe(188_000 + 68_050 * 2);
  });

  it('labels seats the way tickets do', () => {
    expect(seatLabel({ section: 'A区', row: '3', number: '12' })).toBe('A区 3排12座');
  });
});

describe('live states', () => {
  it('rewrites states in place and reports selected seats someone else took', () => {
    const m = buildModel(seatMap({ s9: 'sold' }));
    const sel = [idx(m, 's1'), idx(m, 's2')];
    const u = applyStates(m, { held: ['s2', 'nope'], sold: ['s3'] }, sel);
    expect(u).toEqual({ changed: true, lost: [idx(m, 's2')] });
    expect(m.state[idx(m, 's2')]).toBe(HELD);
    expect(m.state[idx(m, 's3')]).toBe(SOLD);
    expect(m.state[idx(m, 's9')]).toBe(0); // released again
    expect(applyStates(m, { held: ['s2'], sold: ['s3'] }, []).changed).toBe(false);
  });
});

describe('seat-state deltas', () => {
  it('applies only the named seats, keeps the rest, and reports lost selections', () => {
    const m = buildModel(seatMap({ s9: 'sold', s4: 'held' }));
    const sel = [idx(m, 's1'), idx(m, 's2')];
    const u = applyDelta(m, { held: ['s2', 'nope'], sold: ['s3'], available: ['s9'] }, sel);
    expect(u).toEqual({ changed: true, lost: [idx(m, 's2')] });
    expect(m.state[idx(m, 's2')]).toBe(HELD);
    expect(m.state[idx(m, 's3')]).toBe(SOLD);
    expect(m.state[idx(m, 's9')]).toBe(0);
    expect(m.state[idx(m, 's4')]).toBe(HELD); // not named: unchanged (a full list would free it)
    expect(applyDelta(m, { held: [], sold: [], available: [] }, sel).changed).toBe(false);
    expect(applyDelta(m, { held: ['s2'], sold: ['s3'], available: [] }, []).changed).toBe(false);
  });

  it('ends at the same states as the full list it stands for', () => {
    const a = buildModel(seatMap({ s9: 'sold', s4: 'held' }));
    const b = buildModel(seatMap({ s9: 'sold', s4: 'held' }));
    applyStates(a, { held: ['s1'], sold: ['s9', 's3'] }, []);
    applyDelta(b, { held: ['s1'], sold: ['s3'], available: ['s4'] }, []);
    expect([...b.state]).toEqual([...a.state]);
  });

  it('composes the map from the cached layout and a full states list', () => {
    const full = seatMap({ s2: 'held', s3: 'sold' });
    const layout = {
      sessionId: full.sessionId,
      version: 'L1',
      seating: full.seating,
      tiers: full.tiers,
      seats: full.seats.map(({ state: _s, ...seat }) => seat),
      zones: [{ id: 'z1', name: '站席', tierId: full.tiers[0]!.id, capacity: 9 }],
    };
    const map = composeSeatMap(layout, {
      sessionId: full.sessionId,
      version: 'v7',
      held: ['s2'],
      sold: ['s3'],
      zones: [{ id: 'z1', available: 4 }],
    });
    expect(map.seats).toEqual(full.seats);
    expect(map).toMatchObject({
      statesVersion: 'v7',
      layoutVersion: 'L1',
      zones: [{ id: 'z1', available: 4 }],
    });
  });
});

describe('drawing geometry', () => {
  it('finds the seat under a point, and none between rows', () => {
    const m = buildModel(seatMap());
    expect(m.seatSize).toBeCloseTo(7.8);
    expect(seatAt(m, 20.5, 12.8)).toBe(idx(m, 's13'));
    expect(seatAt(m, 25, 6)).toBe(-1);
    expect(seatAt(m, 500, 500)).toBe(-1);
  });

  it('fits the venue on screen and zooms about a point', () => {
    const m = buildModel(seatMap());
    const v = fitView(m.bounds, m.seatSize, 375, 400);
    const left = toScreen(v, m.bounds.minX, m.bounds.minY);
    const right = toScreen(v, m.bounds.maxX, m.bounds.maxY);
    expect(left.x).toBeGreaterThan(0);
    expect(right.x).toBeLessThan(375);
    const z = zoomAt(v, 2, 100, 200);
    const before = toWorld(v, 100, 200);
    const after = toWorld(z, 100, 200);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
    expect(zoomAt(v, 1000, 0, 0).scale).toBe(v.maxScale);
  });
});

describe('gestures', () => {
  it('tells taps from pans and pinches', () => {
    const g = new GestureTracker();
    g.down(1, 10, 10);
    expect(g.move(1, 12, 11)).toBeNull(); // within the tap slop
    expect(g.up(1, 12, 11)).toEqual({ kind: 'tap', x: 12, y: 11 });

    g.down(1, 10, 10);
    expect(g.move(1, 40, 10)).toEqual({ kind: 'pan', dx: 30, dy: 0 });
    expect(g.up(1, 40, 10)).toBeNull();

    g.down(1, 0, 0);
    g.down(2, 100, 0);
    expect(g.move(2, 200, 0)).toEqual({ kind: 'pinch', factor: 2, cx: 100, cy: 0 });
    g.up(2, 200, 0);
    expect(g.up(1, 0, 0)).toBeNull();
  });
});

describe('tier colours', () => {
  const tier = (id: string, color?: string) => ({ id, name: id, priceFen: 100, ...(color ? { color } : {}) });
  /** The colours the map and its legend give these tiers. */
  const colorsOf = (tiers: ReturnType<typeof tier>[]) => buildModel({ ...seatMap(), tiers }).colors;
  const PICKED = '#16a34a'; // a selected seat
  const TAKEN = '#d9d9de'; // a sold or held seat
  const near = (a: string, b: string) => {
    const c = (h: string) => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16));
    const [x, y] = [c(a), c(b)];
    return Math.hypot(x[0]! - y[0]!, x[1]! - y[1]!, x[2]! - y[2]!) < 60;
  };

  it('never gives a tier the colour of a picked or a taken seat', () => {
    // Eight tiers without colours: all different, none green like a picked seat or grey.
    const auto = colorsOf(Array.from({ length: 8 }, (_, i) => tier(`t${i}`)));
    expect(new Set(auto).size).toBe(8);
    for (const c of auto) expect([near(c, PICKED), near(c, TAKEN)]).toEqual([false, false]);
    // An organiser's green (or grey) would read as "picked" (or "taken"): replaced.
    const [green, grey] = colorsOf([tier('a', '#1aa34f'), tier('b', '#d0d0d6')]);
    expect([near(green!, PICKED), near(grey!, TAKEN)]).toEqual([false, false]);
  });

  it('an automatic colour never repeats a colour another tier already shows', () => {
    // 内场 has the palette's orange, chosen by the organiser; a tier without a colour gets another.
    const colors = colorsOf([tier('vip', '#e4393c'), tier('floor', '#ff8a00'), tier('new')]);
    expect(colors.slice(0, 2)).toEqual(['#e4393c', '#ff8a00']);
    expect(['#e4393c', '#ff8a00']).not.toContain(colors[2]);
    // The standing zone's teal, and four new tiers around it: teal shows once.
    const teal = colorsOf([tier('n1'), tier('standing', '#13a8a8'), tier('n2'), tier('n3'), tier('n4')]);
    expect(teal.filter((c) => near(c, '#13a8a8'))).toHaveLength(1);
  });
});
