/**
 * Sets key in a Map that holds at most `max` entries: a new key past the bound drops the oldest
 * entry first (a Map keeps insertion order, so its first key is the oldest), while setting a key
 * already held keeps its place. A FIFO on purpose, not an LRU: the callers' entries are read far
 * more often than written (a poll per fan every few seconds), and an LRU's reorder on every read
 * costs more than the rare wrong eviction saves. `max` ≤ 0 holds nothing.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (max <= 0) return;
  if (map.size >= max && !map.has(key)) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
