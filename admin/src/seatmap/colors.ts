/**
 * Colour rules of the admin seat maps: a tier's automatic colour never repeats a colour already
 * used, and the live map's 锁座中 colour is never close to a tier's (the demo's 内场 tier is the
 * same orange the dashboard used for held seats, so held seats vanished into it).
 */

const rgb = (hex: string): [number, number, number] => {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.padEnd(6, '0');
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) || 0) as [number, number, number];
};

/** Euclidean distance in RGB: crude, but enough to tell "the same orange" from a different hue. */
export function colorDistance(a: string, b: string): number {
  const [x, y] = [rgb(a), rgb(b)];
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

/** Closer than this, two colours read as one on a seat map. */
export const TOO_CLOSE = 60;

const farFromAll = (c: string, used: string[]) => used.every((u) => colorDistance(c, u) >= TOO_CLOSE);

/**
 * The first palette colour far from every used one; when the palette runs out, a generated hue
 * (golden-angle steps) far from every used colour, so a new tier never repeats an existing one.
 */
export function nextColor(palette: readonly string[], used: string[]): string {
  const free = palette.find((c) => farFromAll(c, used));
  if (free) return free;
  for (let i = 0; i < 360; i++) {
    const c = hslHex((i * 137.508) % 360, 0.65, 0.45);
    if (farFromAll(c, used)) return c;
  }
  return palette[used.length % palette.length]!;
}

/** 锁座中 candidates, most familiar first; sold seats are #4b4b5b and unavailable ones #d9d9de. */
const HELD_CANDIDATES = ['#ff8a00', '#fadb14', '#eb2f96', '#000000', '#00c2ff'];

/** The live map's 锁座中 colour for a session: the first candidate far from every tier colour. */
export function heldColor(tierColors: string[]): string {
  return HELD_CANDIDATES.find((c) => farFromAll(c, tierColors)) ?? HELD_CANDIDATES[0]!;
}

function hslHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}
