// Waiting for a server a script or bench started: whether a GET of its URL is answered 2xx in
// time. Plain CommonJS and Node built-ins only (types in answering.d.ts), like free-port.js, so
// the benches and scripts/cluster.mjs share this one loop.

/**
 * Whether a GET of `url` is answered 2xx within `ms`, asked every `everyMs` (a refused connection
 * or another status asks again).
 */
async function answersWithin(url, ms, everyMs = 100) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      /* not listening yet */
    }
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

module.exports = { answersWithin };
