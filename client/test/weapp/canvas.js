/**
 * A Canvas 2D node for miniprogram-simulate, which has no canvas: it records what the compiled
 * page draws. Each frame starts at setTransform (render.ts sets it first); a fill() keeps the
 * rectangles of the current path with the fillStyle it was filled with, so a test can ask which
 * colour a seat was painted.
 */
const canvas = { enabled: false, width: 0, height: 0, frames: [] };

function recordingContext() {
  let path = [];
  const frame = () => canvas.frames[canvas.frames.length - 1];
  return {
    fillStyle: '#000',
    strokeStyle: '#000',
    lineWidth: 1,
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    setTransform() {
      canvas.frames.push({ fills: [], texts: [], strokes: [] });
    },
    clearRect() {},
    fillRect() {},
    strokeRect(x, y, w, h) {
      frame()?.strokes.push({ color: this.strokeStyle, x: x + w / 2, y: y + h / 2 });
    },
    beginPath() {
      path = [];
    },
    rect(x, y, w, h) {
      path.push({ x: x + w / 2, y: y + h / 2, size: w });
    },
    fill() {
      frame()?.fills.push({ color: this.fillStyle, rects: path });
    },
    fillText(text, x, y) {
      frame()?.texts.push({ text, x, y });
    },
    strokeText() {},
  };
}

/** The node a selector query's `fields({node: true, size: true, rect: true})` answers. */
function canvasHit() {
  const ctx = recordingContext();
  const node = {
    width: 0,
    height: 0,
    getContext: () => ctx,
    requestAnimationFrame: (cb) => setTimeout(cb, 16),
  };
  return { node, width: canvas.width, height: canvas.height, left: 0, top: 0 };
}

/** The colour the last frame painted at screen point p (a seat's centre), or undefined. */
function colourAt(p) {
  const last = canvas.frames[canvas.frames.length - 1];
  let found;
  for (const f of last?.fills ?? [])
    if (f.rects.some((r) => Math.abs(r.x - p.x) < 0.5 && Math.abs(r.y - p.y) < 0.5)) found = f.color;
  return found; // later fills paint over earlier ones
}

function resetCanvas() {
  Object.assign(canvas, { enabled: false, width: 0, height: 0, frames: [] });
}

module.exports = { canvas, canvasHit, colourAt, resetCanvas };
