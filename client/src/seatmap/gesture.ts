/**
 * Turns raw pointer/touch positions into pan, pinch and tap, the same way on both platforms:
 * H5 feeds it pointer events, WeChat feeds it canvas touches.
 */
export type Gesture =
  | { kind: 'pan'; dx: number; dy: number }
  | { kind: 'pinch'; factor: number; cx: number; cy: number }
  | { kind: 'tap'; x: number; y: number };

interface Pt {
  x: number;
  y: number;
}

/** Movement under this many pixels still counts as a tap. */
const TAP_SLOP = 8;

export class GestureTracker {
  private readonly pts = new Map<number, Pt>();
  private start: Pt | null = null;
  private moved = false;
  private multi = false;

  down(id: number, x: number, y: number): void {
    this.pts.set(id, { x, y });
    if (this.pts.size === 1) {
      this.start = { x, y };
      this.moved = false;
      this.multi = false;
    } else {
      this.multi = true;
    }
  }

  move(id: number, x: number, y: number): Gesture | null {
    const prev = this.pts.get(id);
    if (!prev) return null;
    if (this.pts.size >= 2) return this.pinchMove(id, x, y);
    this.pts.set(id, { x, y });
    if (this.start && Math.hypot(x - this.start.x, y - this.start.y) > TAP_SLOP) this.moved = true;
    return this.moved ? { kind: 'pan', dx: x - prev.x, dy: y - prev.y } : null;
  }

  up(id: number, x: number, y: number): Gesture | null {
    if (!this.pts.has(id)) return null;
    this.pts.delete(id);
    const tap = this.pts.size === 0 && !this.moved && !this.multi && this.start !== null;
    if (this.pts.size === 0) this.start = null;
    return tap ? { kind: 'tap', x, y } : null;
  }

  cancel(): void {
    this.pts.clear();
    this.start = null;
  }

  private pinchMove(id: number, x: number, y: number): Gesture | null {
    const [a, b] = [...this.pts.entries()].slice(0, 2);
    const before = Math.hypot(a![1].x - b![1].x, a![1].y - b![1].y);
    this.pts.set(id, { x, y });
    this.moved = true;
    const [c, d] = [...this.pts.values()].slice(0, 2);
    const after = Math.hypot(c!.x - d!.x, c!.y - d!.y);
    if (before < 1 || after < 1) return null;
    return { kind: 'pinch', factor: after / before, cx: (c!.x + d!.x) / 2, cy: (c!.y + d!.y) / 2 };
  }
}
