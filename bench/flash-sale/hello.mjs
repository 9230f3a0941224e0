// The ceiling: a Koa hello-world on the same machine, pinned like the real server. With
// HELLO_REDIS_URL, the issue's floor for a waiting-room poll instead ("what a hello-world request
// costs plus one Redis call"): each request also makes one Lua script call on one key (under
// HELLO_KEY_PREFIX) through ioredis, with the server's client options (auto-pipelining on), that
// answers a poll-shaped view (8 strings, as queueStatus-5.lua does).
import Koa from 'koa';

const app = new Koa();
const redis = process.env.HELLO_REDIS_URL ? await oneRedisCall(process.env.HELLO_REDIS_URL) : undefined;
app.use(
  redis
    ? async (ctx) => {
        const view = await redis.call();
        ctx.body = { hello: 'world', admittedThrough: Number(view[2]) };
      }
    : (ctx) => {
        ctx.body = { hello: 'world' };
      },
);
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () =>
  server.close(() => {
    redis?.client.disconnect();
    process.exit(0);
  }),
);

/** The one Redis script call a floor request makes (ioredis loaded only for the floor). */
async function oneRedisCall(url) {
  const { default: Redis } = await import('ioredis');
  const client = new Redis(url, { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
  client.defineCommand('view', {
    numberOfKeys: 1,
    lua: "local v = redis.call('GET', KEYS[1]) or '0' return {v, '0', v, '0', '0', '0', '', '1'}",
  });
  const key = `${process.env.HELLO_KEY_PREFIX ?? 'bench:'}hello-redis`;
  return { client, call: () => client.view(key) };
}
