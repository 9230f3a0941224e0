import Taro from '@tarojs/taro';

/**
 * Random ids (idempotency keys, the device id, H5 openids) from a cryptographically secure
 * source: crypto.getRandomValues where the platform has it (browsers), otherwise bytes that
 * WeChat's wx.getRandomValues produced ahead of time (the mini-program has no `crypto`, and
 * wx.getRandomValues answers asynchronously while ids are needed at once). Math.random only
 * fills in if no secure byte has arrived yet (the first instant after launch, or a base library
 * older than 2.22.0).
 */
const POOL_BYTES = 1024;
let pool = new Uint8Array(0);
let refilling: Promise<void> | undefined;

type Crypto = { getRandomValues?: (a: Uint8Array) => Uint8Array };
const webCrypto = () => (globalThis as { crypto?: Crypto }).crypto;

/** Fetches secure bytes from WeChat into the pool (once at a time; a failure leaves it as it is). */
export function primeRandom(): Promise<void> {
  if (webCrypto()?.getRandomValues || typeof Taro.getRandomValues !== 'function') return Promise.resolve();
  refilling ??= Taro.getRandomValues({ length: POOL_BYTES })
    .then((r) => {
      const more = new Uint8Array(r.randomValues);
      const next = new Uint8Array(pool.length + more.length);
      next.set(pool);
      next.set(more, pool.length);
      pool = next;
    })
    .catch(() => undefined)
    .finally(() => {
      refilling = undefined;
    });
  return refilling;
}

function randomBytes(n: number): Uint8Array {
  const c = webCrypto();
  if (c?.getRandomValues) return c.getRandomValues(new Uint8Array(n));
  if (pool.length < POOL_BYTES / 4 + n) void primeRandom();
  if (pool.length >= n) {
    const out = pool.slice(0, n);
    pool = pool.slice(n);
    return out;
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(Math.random() * 256);
  return out;
}

export function randomId(prefix: string, bytes = 12): string {
  let hex = '';
  for (const b of randomBytes(bytes)) hex += b.toString(16).padStart(2, '0');
  return `${prefix}-${Date.now().toString(36)}-${hex}`;
}

// The mini-program asks WeChat for its first secure bytes as soon as the app loads.
void primeRandom();
