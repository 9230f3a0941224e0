import type { DrawKind, SeatMapController } from './controller';

/**
 * Drawing-complete markers for the benchmark and the browser tests (H5 only). Times are
 * performance.now() values, i.e. milliseconds since navigation started.
 *   __seatmapDrawnAt        first full draw of the seats
 *   __seatmapTapAt          the pointer-up that ended the last tap (event timestamp)
 *   __seatmapSelectDrawnAt  the redraw that showed the last selection change
 *   __seatmapSelectFrameAt  the animation frame after it (the frame that shows it)
 *   __seatmap               seat lookups: where to tap a seat, which seats are free
 */
interface SeatMapWindow {
  __seatmapDrawnAt?: number;
  __seatmapTapAt?: number;
  __seatmapSelectDrawnAt?: number;
  __seatmapSelectFrameAt?: number;
  __seatmapDraws?: number;
  __seatmap?: unknown;
}

function win(): SeatMapWindow | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as SeatMapWindow);
}

export function markDrawn(kind: DrawKind): void {
  const w = win();
  if (!w || typeof performance === 'undefined') return;
  const now = performance.now();
  w.__seatmapDraws = (w.__seatmapDraws ?? 0) + 1;
  if (kind === 'full' && w.__seatmapDrawnAt === undefined) w.__seatmapDrawnAt = now;
  if (kind === 'select') {
    w.__seatmapSelectDrawnAt = now;
    window.requestAnimationFrame(() => {
      w.__seatmapSelectFrameAt = performance.now();
    });
  }
}

/**
 * A step on the way to the first draw, as a performance mark `seatmap:<name>` (H5): where the
 * first draw's time goes (bench/seatmap/profile.mjs prints them).
 */
export function markStage(name: string): void {
  if (win() && typeof performance !== 'undefined' && typeof performance.mark === 'function')
    performance.mark(`seatmap:${name}`);
}

export function markTap(eventTimeStamp: number): void {
  const w = win();
  if (w) w.__seatmapTapAt = eventTimeStamp;
}

export function exposeSeatMap(c: SeatMapController, rect: () => DOMRect): () => void {
  const w = win();
  if (!w) return () => undefined;
  const api = {
    /** Viewport (client) coordinates of a seat's centre, for page.mouse.click / touchscreen.tap. */
    seatPoint(seat: number) {
      const p = c.seatPoint(seat);
      if (!p) return null;
      const r = rect();
      return { x: r.left + p.x, y: r.top + p.y };
    },
    seatAt: (x: number, y: number) => c.seatAtScreen(x - rect().left, y - rect().top),
    /** Zoom: scale, fit scale, on-screen seat pitch, whether the minimap shows. */
    view: () => c.viewInfo(),
    /** Seats too dense to pick: a tap zooms in instead. */
    dense: () => c.isDense(),
    /** The minimap's box in viewport coordinates, or null while it is hidden. */
    minimap() {
      const b = c.minimap();
      const r = rect();
      return b && { x: r.left + b.x, y: r.top + b.y, w: b.w, h: b.h };
    },
    /** The name of a seat's tier (by index), for picks by price. */
    tier: (i: number) => {
      const m = c.currentModel();
      return m && i >= 0 && i < m.count ? m.tiers[m.tierOf[i]!]?.name : undefined;
    },
    /** The index of a seat id in the map (for seatPoint), or -1. */
    indexOf: (id: string) => c.currentModel()?.index.get(id) ?? -1,
    /** A seat's state as the map draws it now: available, held or sold (live refreshes included). */
    seatState(id: string) {
      const m = c.currentModel();
      const i = m?.index.get(id);
      return m && i !== undefined ? (['available', 'held', 'sold'][m.state[i]!] ?? 'unknown') : undefined;
    },
    /** The first n available seats in map order that can be tapped on screen, with their tap points. */
    freeSeats(n: number) {
      const m = c.currentModel();
      const r = rect();
      const canvas = typeof document === 'undefined' ? null : document.querySelector('.seat-canvas__canvas');
      const out: { index: number; id: string; x: number; y: number }[] = [];
      for (let i = 0; m && i < m.count && out.length < n; i++) {
        const p = m.state[i] === 0 ? api.seatPoint(i) : null;
        const inside = p && p.x > r.left + 4 && p.x < r.right - 4 && p.y > r.top + 4 && p.y < r.bottom - 4;
        // Not under the zoom buttons or anything else drawn over the canvas, nor the minimap.
        const b = api.minimap();
        const onMini = b && p && p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;
        if (inside && !onMini && (!canvas || document.elementFromPoint(p.x, p.y) === canvas))
          out.push({ index: i, id: m.ids[i]!, ...p });
      }
      return out;
    },
  };
  w.__seatmap = api;
  return () => {
    if (w.__seatmap === api) delete w.__seatmap;
  };
}
