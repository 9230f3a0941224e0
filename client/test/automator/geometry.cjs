/**
 * The seat map's screen geometry for the automator suite, mirroring client/src/seatmap (fit the
 * venue into the canvas, stage space on top). Kept in plain JS because DevTools suites run
 * without a TypeScript step. Returns the first free seats' canvas points and prices.
 */
const STAGE_SPACE = 44;
const PAD = 16;

function pitch(seats) {
  const d = [];
  for (let i = 0; i + 1 < Math.min(seats.length, 200); i++) {
    const v = Math.hypot(seats[i + 1].x - seats[i].x, seats[i + 1].y - seats[i].y);
    if (v > 0) d.push(v);
  }
  d.sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)] ?? 10;
}

exports.buildModel = function buildModel(map, width, height) {
  const xs = map.seats.map((s) => s.x);
  const ys = map.seats.map((s) => s.y);
  const b = { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
  const size = pitch(map.seats) * 0.78;
  const w = b.maxX - b.minX + size;
  const h = b.maxY - b.minY + size;
  const scale = Math.min((width - 2 * PAD) / w, (height - 2 * PAD - STAGE_SPACE) / h);
  const tx = (width - w * scale) / 2 - (b.minX - size / 2) * scale;
  const ty =
    PAD + STAGE_SPACE + (height - 2 * PAD - STAGE_SPACE - h * scale) / 2 - (b.minY - size / 2) * scale;
  const price = new Map(map.tiers.map((t) => [t.id, t.priceFen]));
  return map.seats
    .filter((s) => s.state === 'available')
    .map((s) => ({ id: s.id, x: s.x * scale + tx, y: s.y * scale + ty, priceFen: price.get(s.tierId) }));
};

/**
 * Where the seats are after a tap on a map too dense for a finger (seats under 16 px apart): the
 * app zooms about the tapped point so that seats are 30 px apart (client/src/seatmap/controller.ts).
 * Returns the points unchanged when the map is not dense.
 */
exports.afterDenseTap = function afterDenseTap(map, points, width, height, at) {
  const xs = map.seats.map((s) => s.x);
  const ys = map.seats.map((s) => s.y);
  const size = pitch(map.seats) * 0.78;
  const w = Math.max(...xs) - Math.min(...xs) + size;
  const h = Math.max(...ys) - Math.min(...ys) + size;
  const scale = Math.min((width - 2 * PAD) / w, (height - 2 * PAD - STAGE_SPACE) / h);
  const px = pitch(map.seats) * scale;
  if (px >= 16) return points;
  const k = 30 / px;
  return points.map((p) => ({ ...p, x: at.x + (p.x - at.x) * k, y: at.y + (p.y - at.y) * k }));
};
