/**
 * Polls fn until it answers truthy and returns that answer (notifications, consumers, refunds
 * and offers run asynchronously); throws naming `what` after `ms` (10 s). Polls every `everyMs` (25 ms).
 */
export function until<T>(
  fn: () => Promise<T | undefined | false>,
  what: string,
  ms?: number,
  everyMs?: number,
): Promise<T>;
