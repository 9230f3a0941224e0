// Plain CommonJS (its types in until.d.ts) so that the client's browser harness
// (client/test/harness/stack.mjs) polls with this same helper.

/**
 * Polls fn until it answers truthy and returns that answer (notifications, consumers, refunds
 * and offers run asynchronously); throws naming `what` after `ms`. Polls every `everyMs`.
 */
async function until(fn, what, ms = 10_000, everyMs = 25) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

module.exports = { until };
