/**
 * How many of the oldest entries a full map drops at once (1/64 of the bound, at least one).
 *
 * Why not one per new key: V8 leaves a deleted Map entry's slot in its table until the table is
 * next rebuilt, and finding the first live key walks over every such slot from the start. A full
 * Map that dropped one entry per new key walked tens of thousands of slots per key: 17-66 µs a
 * key, growing, for 200,000 new keys on a Map of 200,000 (the verified tokens' bound), against
 * 0.55 µs below the bound (2026-12-06). That is every new fan's first request once an on-sale has
 * seen more fans than the bound. Dropping a batch walks those slots once per batch.
 */
export const evictBatch = (max: number): number => Math.max(1, Math.ceil(max / 64));

/**
 * Sets key in a Map that holds at most `max` entries: a new key at the bound first drops the
 * oldest entries (a Map keeps insertion order, so its first keys are the oldest), evictBatch(max)
 * of them, while setting a key already held keeps its place. A FIFO on purpose, not an LRU: the
 * callers' entries are read far more often than written (a poll per fan every few seconds), and
 * an LRU's reorder on every read costs more than the rare wrong eviction saves. `max` ≤ 0 holds
 * nothing.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (max <= 0) return;
  if (map.size >= max && !map.has(key)) {
    let drop = map.size - max + evictBatch(max);
    for (const oldest of map.keys()) {
      map.delete(oldest);
      if (--drop <= 0) break;
    }
  }
  map.set(key, value);
}
