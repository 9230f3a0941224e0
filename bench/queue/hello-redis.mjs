// The issue's own floor for a waiting-room poll: "what a hello-world request costs plus one Redis
// call". The Koa hello-world of bench/flash-sale/hello.mjs, each request also making one Lua
// script call on one key through ioredis, with the server's client options (auto-pipelining on),
// that answers a poll-shaped view (an array of 8 strings, as queueStatus-5.lua does). Measured in
// the same run as the polls, it says how far a poll's CPU is from that floor on this machine.
import Koa from 'koa';
import Redis from 'ioredis';

const KEY = `${process.env.KEY_PREFIX ?? 'bench:'}hello-redis`;
const redis = new Redis(process.env.REDIS_URL, { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
redis.defineCommand('view', {
  numberOfKeys: 1,
  lua: "local v = redis.call('GET', KEYS[1]) or '0' return {v, '0', v, '0', '0', '0', '', '1'}",
});

const app = new Koa();
app.use(async (ctx) => {
  const view = await redis.view(KEY);
  ctx.body = { hello: 'world', admittedThrough: Number(view[2]) };
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () =>
  server.close(() => {
    redis.disconnect();
    process.exit(0);
  }),
);
