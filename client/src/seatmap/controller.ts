import { seatAt, type SeatModel } from './model';
import { drawSeatMap, type Ctx2D } from './render';
import { GestureTracker, type Gesture } from './gesture';
import { fromMini, minimapBox, showsMinimap } from './minimap';
import { clampView, fitView, panBy, toScreen, toWorld, zoomAt, type View } from './viewport';

/**
 * Seats closer than this on screen (CSS px) are too dense for a finger: a tap there zooms in
 * (about the finger) instead of picking a seat the fan may not have meant.
 */
export const DENSE_PITCH_PX = 16;
/** The seat pitch a dense tap zooms to: rows and numbers readable, one seat per fingertip. */
const TAP_ZOOM_PITCH_PX = 30;

export interface Surface {
  /** Null where no canvas exists (tests of the compiled mini-program): hit tests still work. */
  ctx: Ctx2D | null;
  width: number;
  height: number;
  dpr: number;
  raf: (cb: () => void) => void;
}

export type DrawKind = 'full' | 'select' | 'view' | 'states';

/**
 * Owns the view (zoom and pan) and draws the seat map on a canvas surface. React only tells it
 * the model and the selection; gestures change the view here without any React render, so
 * panning a 10,000-seat map never re-renders the page.
 */
export class SeatMapController {
  private view: View | null = null;
  /** The view that shows the whole venue: the minimap's reference and where 全览 returns. */
  private fit: View | null = null;
  /** The tier the legend filter offers (its index), or null for all. */
  private filter: number | null = null;
  private model: SeatModel | null = null;
  private selected: readonly number[] = [];
  private pending: DrawKind | null = null;
  readonly gestures = new GestureTracker();

  constructor(
    private surface: Surface,
    private readonly onDrawn: (kind: DrawKind) => void = () => undefined,
    private readonly onTapSeat: (seat: number) => void = () => undefined,
  ) {}

  /** A new canvas size. The fan's zoom survives resizes, unless the map was never laid out. */
  setSurface(s: Surface): void {
    const wasReady = this.ready();
    this.surface = s;
    if (this.model) {
      const fit = fitView(this.model.bounds, this.model.seatSize, s.width, s.height);
      // Zoom limits follow the new size; the fan's zoom and pan are kept.
      this.view =
        !this.view || !wasReady ? fit : { ...this.view, minScale: fit.minScale, maxScale: fit.maxScale };
      this.fit = fit;
    }
    this.draw('full');
  }

  setModel(m: SeatModel): void {
    this.model = m;
    this.fit = fitView(m.bounds, m.seatSize, this.surface.width, this.surface.height);
    this.view = this.fit;
    this.draw('full');
  }

  /** A canvas before layout (a few pixels high) is not worth drawing or fitting to. */
  private ready(): boolean {
    return this.surface.width >= 40 && this.surface.height >= 40;
  }

  /** Drawn at once (not on the next frame): this is the tap-to-feedback path. */
  setSelected(sel: readonly number[]): void {
    this.selected = sel;
    this.draw('select');
  }

  /** Only this tier's seats in colour (the others washed out); null shows every tier. */
  setFilter(tier: number | null): void {
    if (tier === this.filter) return;
    this.filter = tier;
    this.draw('full');
  }

  /** Back to the whole venue (全览). */
  showAll(): void {
    if (!this.fit) return;
    this.view = this.fit;
    this.schedule('view');
  }

  /** Seats too close together on screen for a finger to pick one (see DENSE_PITCH_PX). */
  isDense(): boolean {
    return Boolean(this.view && this.model) && this.model!.pitch * this.view!.scale < DENSE_PITCH_PX;
  }

  /** Zoom and pan for tests: the scale, the fit scale, the on-screen seat pitch. */
  viewInfo(): { scale: number; fitScale: number; pitchPx: number; minimap: boolean } | null {
    if (!this.view || !this.model || !this.fit) return null;
    const { scale } = this.view;
    return {
      scale,
      fitScale: this.fit.scale,
      pitchPx: this.model.pitch * scale,
      minimap: showsMinimap(this.view, this.fit),
    };
  }

  /** The minimap's box on the canvas (CSS px) while it shows, else null. */
  minimap(): { x: number; y: number; w: number; h: number } | null {
    if (!this.view || !this.model || !showsMinimap(this.view, this.fit)) return null;
    const { x, y, w, h } = minimapBox(this.model, this.surface.width);
    return { x, y, w, h };
  }

  statesChanged(): void {
    this.schedule('states');
  }

  handle(g: Gesture | null): void {
    if (!g || !this.view || !this.model) return;
    if (g.kind === 'tap') return this.tap(g.x, g.y);
    const next = g.kind === 'pan' ? panBy(this.view, g.dx, g.dy) : zoomAt(this.view, g.factor, g.cx, g.cy);
    this.setView(next);
  }

  private setView(next: View): void {
    this.view = clampView(next, this.model!.bounds, this.surface.width, this.surface.height);
    this.schedule('view');
  }

  /**
   * A tap: on the minimap it moves the view there; on seats too dense to tell apart it zooms in
   * about the finger (the seat under it stays under it); otherwise it picks the seat.
   */
  private tap(x: number, y: number): void {
    const v = this.view!;
    const m = this.model!;
    if (showsMinimap(v, this.fit)) {
      const w = fromMini(m, minimapBox(m, this.surface.width), x, y);
      if (w) {
        const { width, height } = this.surface;
        return this.setView({ ...v, tx: width / 2 - w.x * v.scale, ty: height / 2 - w.y * v.scale });
      }
    }
    if (this.isDense()) {
      const factor = TAP_ZOOM_PITCH_PX / (m.pitch * v.scale);
      return this.setView(zoomAt(v, factor, x, y));
    }
    const seat = this.seatAtScreen(x, y);
    if (seat >= 0) this.onTapSeat(seat);
  }

  zoom(factor: number, cx = this.surface.width / 2, cy = this.surface.height / 2): void {
    this.handle({ kind: 'pinch', factor, cx, cy });
  }

  currentModel(): SeatModel | null {
    return this.model;
  }

  seatAtScreen(x: number, y: number): number {
    if (!this.view || !this.model) return -1;
    const w = toWorld(this.view, x, y);
    return seatAt(this.model, w.x, w.y);
  }

  /** Where a seat is on the canvas, in CSS pixels (tests and the benchmark tap there). */
  seatPoint(seat: number): { x: number; y: number } | null {
    if (!this.view || !this.model || seat < 0 || seat >= this.model.count) return null;
    return toScreen(this.view, this.model.xs[seat]!, this.model.ys[seat]!);
  }

  private schedule(kind: DrawKind): void {
    if (this.pending) return;
    this.pending = kind;
    this.surface.raf(() => {
      const k = this.pending ?? kind;
      this.pending = null;
      this.draw(k);
    });
  }

  private draw(kind: DrawKind): void {
    const { ctx, width, height, dpr } = this.surface;
    if (!this.model || !this.view || !ctx || !this.ready()) return;
    drawSeatMap({ ctx, width, height, dpr }, this.model, this.view, this.selected, {
      filter: this.filter,
      fit: this.fit,
    });
    this.onDrawn(kind);
  }
}
