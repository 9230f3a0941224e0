/** Random ids for idempotency keys and H5 openids. Uses crypto when the platform has it. */
function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
  if (c?.getRandomValues) return c.getRandomValues(out);
  for (let i = 0; i < n; i++) out[i] = Math.floor(Math.random() * 256);
  return out;
}

export function randomId(prefix: string, bytes = 12): string {
  let hex = '';
  for (const b of randomBytes(bytes)) hex += b.toString(16).padStart(2, '0');
  return `${prefix}-${Date.now().toString(36)}-${hex}`;
}
