// Faults of a chaos run, drawn from the seed one after another while the buyers buy: kill -9 of
// an API or worker process (restarted as an orchestrator would), RabbitMQ and MySQL cut (TCP
// proxies: the shared services never stop), FLUSHALL and restart of the run's own Redis, and the
// simulator's WeChat faults.
import Redis from 'ioredis';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const WECHAT = [
  ['duplicate notifications', { duplicate: 3 }],
  ['delayed notifications', { delayMs: 2500 }],
  ['dropped notifications', { drop: true }],
  ['out-of-order notifications', { outOfOrder: 3 }],
  ['refund NOT_ENOUGH', { refundNotEnough: true }],
  ['refund ABNORMAL', { refundOutcome: 'ABNORMAL' }],
  ['WeChat SYSTEM_ERROR', { failNextRequests: 5 }],
];

/** Every run has one window of payments taken in USD (beside the drawn faults, not drawn itself). */
const USD_AT_MS = 25_000;
const USD_FOR_MS = 12_000;

/** Injects faults until stop() says so; returns the list of what was injected ({at, what}). */
export async function injectFaults(stack, r, { stop, gapMs, log }) {
  const done = [];
  const t0 = Date.now();
  const ms = (lo, hi) => lo + Math.floor(r() * (hi - lo));
  const note = (what) => {
    done.push({ at_s: Math.round((Date.now() - t0) / 100) / 10, what });
    log(`fault: ${what}`);
  };
  const usd = setTimeout(() => {
    note(`WeChat: payments taken in USD for ${USD_FOR_MS} ms`);
    stack.sim.setFaults({ payCurrency: 'USD' });
    setTimeout(() => stack.sim.setFaults({ payCurrency: '' }), USD_FOR_MS).unref();
  }, USD_AT_MS);
  usd.unref();
  await sleep(gapMs / 2);
  while (!stop()) {
    const kind = Math.floor(r() * 6);
    if (kind === 0) {
      // The supervisor restarts it beside the next faults (a process takes seconds to come back).
      const up = stack.procs.filter((p) => p.up);
      if (up.length) {
        const p = up[Math.floor(r() * up.length)];
        note(`kill -9 ${p.name}`);
        await stack.kill9(p, ms(500, 3000));
      }
    } else if (kind === 1) {
      const d = ms(1500, 6000);
      note(`RabbitMQ cut ${d} ms`);
      stack.amqpProxy.set('down');
      await sleep(d);
      stack.amqpProxy.set('up');
    } else if (kind === 2) {
      const d = ms(1500, 5000);
      if (r() < 0.3) {
        // Statements (commits too) reach MySQL, their answers are lost; then the connections drop.
        note(`MySQL answers lost ${d} ms, then cut`);
        stack.mysqlProxy.set('blackhole');
        await sleep(d);
        stack.mysqlProxy.set('down');
        await sleep(500);
      } else {
        note(`MySQL cut ${d} ms`);
        stack.mysqlProxy.set('down');
        await sleep(d);
      }
      stack.mysqlProxy.set('up');
    } else if (kind === 3) {
      if (r() < 0.5) {
        note('Redis FLUSHALL');
        const c = new Redis(stack.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
        await c
          .connect()
          .then(() => c.flushall())
          .catch(() => {});
        c.disconnect();
      } else {
        note('Redis restart (empty)');
        await stack.redis.restart();
      }
    } else {
      const [what, faults] = WECHAT[Math.floor(r() * WECHAT.length)];
      const d = ms(2000, 6000);
      note(`WeChat: ${what} for ${d} ms`);
      stack.sim.setFaults(faults);
      await sleep(d);
      stack.sim.resetFaults();
      await stack.sim.flushNotifications().catch(() => {});
    }
    await sleep(ms(gapMs / 2, gapMs * 1.5));
  }
  return done;
}
