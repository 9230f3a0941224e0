import { seatAt, type SeatModel } from './model';
import { drawSeatMap, type Ctx2D } from './render';
import { GestureTracker, type Gesture } from './gesture';
import { clampView, fitView, panBy, toScreen, toWorld, zoomAt, type View } from './viewport';

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
    if (this.model && (!this.view || !wasReady))
      this.view = fitView(this.model.bounds, this.model.seatSize, s.width, s.height);
    this.draw('full');
  }

  setModel(m: SeatModel): void {
    this.model = m;
    this.view = fitView(m.bounds, m.seatSize, this.surface.width, this.surface.height);
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

  statesChanged(): void {
    this.schedule('states');
  }

  handle(g: Gesture | null): void {
    if (!g || !this.view || !this.model) return;
    if (g.kind === 'tap') {
      const seat = this.seatAtScreen(g.x, g.y);
      if (seat >= 0) this.onTapSeat(seat);
      return;
    }
    const next = g.kind === 'pan' ? panBy(this.view, g.dx, g.dy) : zoomAt(this.view, g.factor, g.cx, g.cy);
    this.view = clampView(next, this.model.bounds, this.surface.width, this.surface.height);
    this.schedule('view');
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
    drawSeatMap({ ctx, width, height, dpr }, this.model, this.view, this.selected);
    this.onDrawn(kind);
  }
}
