/**
 * Runs `fn` on every item, at most `limit` at a time: a pool, not lock-step groups, so one slow
 * call (WeChat answering late) holds up its own lane only. `fn` must not throw: each caller
 * decides what one item's failure means for the others.
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
