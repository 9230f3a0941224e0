import { createHmac } from 'node:crypto';

/**
 * The pre-sale pool's random order: a Fisher-Yates shuffle driven by HMAC-SHA256(seed, i), so
 * it is unpredictable without the seed (kept in Redis) and identical when a draw interrupted by
 * a crash is redone. Members are sorted first so the input order does not matter.
 */
export function drawOrder(members: string[], seed: string): string[] {
  const out = [...members].sort();
  const key = Buffer.from(seed, 'hex');
  for (let i = out.length - 1; i > 0; i--) {
    const r = createHmac('sha256', key).update(String(i)).digest().readUIntBE(0, 6);
    const j = r % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
