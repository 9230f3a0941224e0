/**
 * Polls fn until it answers truthy and returns that answer (notifications, consumers, refunds
 * and offers run asynchronously); throws naming `what` after `ms`.
 */
export async function until<T>(
  fn: () => Promise<T | undefined | false>,
  what: string,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
