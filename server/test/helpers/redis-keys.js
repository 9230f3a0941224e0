// Plain CommonJS (its types in redis-keys.d.ts): the jest suites, the client's browser harness
// and the benches clean up their Redis keys with it.

/** Deletes every key under the prefix on one Redis, SCAN by SCAN (never FLUSHALL: others share it). */
async function deletePrefixed(redis, prefix) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

module.exports = { deletePrefixed };
