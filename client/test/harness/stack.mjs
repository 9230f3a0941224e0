import { DIST_H5, ROOT, rootRequire, serverDist } from './paths.mjs';
import { ensureH5Built, ensureServerBuilt, ensureSimBuilt } from './build.mjs';

// The server suites' helpers, plain CommonJS.
const { deletePrefixed } = rootRequire(`${ROOT}/server/test/helpers/redis-keys.js`);
const { until: pollUntil } = rootRequire(`${ROOT}/server/test/helpers/until.js`);
const { freePort } = rootRequire(`${ROOT}/scripts/lib/free-port.js`);

const DEV_SECRET = 'development-only-secret-never-use-in-production!';

/** A name no other run on this machine uses, valid for MySQL and as a Redis key prefix. */
export function uniqueName(tag) {
  return `showtix_${tag}_${process.pid}_${Date.now().toString(36)}`;
}

/** Deletes this run's RabbitMQ exchange and queues (the server's topology module knows their names). */
async function deleteAmqp(url, prefix) {
  let topology;
  try {
    topology = serverDist('outbox/topology.js');
  } catch {
    return; // a server without a broker declares nothing
  }
  await topology.deleteTopology(url, prefix);
}

/** The server's WeChat settings pointed at the simulator (login, Pay v3, the H5 cashier). */
function wechatEnv(simUrl, port) {
  if (!simUrl) return {};
  return {
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    WECHAT_API_BASE: simUrl,
    WECHAT_PAY_API_BASE: simUrl,
    WECHAT_CASHIER_URL: `${simUrl}/sim/cashier`,
  };
}

/** The server answers the H5 build's index at "/" (it serves dist/h5 itself since H5_DIR). */
async function assertServesH5(url) {
  const res = await fetch(`${url}/`).catch((e) => ({ ok: false, status: e.message, text: async () => '' }));
  const html = res.ok ? await res.text() : '';
  if (!html.includes('id="app"'))
    throw new Error(
      `the server does not serve the H5 build at ${url}/ (answer: ${res.status}); H5_DIR=${DIST_H5}`,
    );
}

/**
 * The real back end for browser tests and the benchmark, in this process: its own MySQL
 * database, Redis key prefix and RabbitMQ prefix (all deleted in close()), the server from its
 * compiled helpers with its jobs and RabbitMQ consumers (JOBS_ENABLED), optionally the WeChat
 * simulator (the server's WeChat login, Pay and cashier pointed at it); the server serves the
 * H5 build (dist/h5) at "/", so the app and /api share one origin.
 *
 * opts.env: extra server environment (wins over the defaults here).
 * opts.sim: start the WeChat simulator (default true).
 * opts.clock: the server's clock (e.g. a ManualClock from clockModule(), for expiry tests).
 */
export async function startStack(opts = {}) {
  ensureServerBuilt();
  ensureH5Built();
  const name = uniqueName(opts.tag ?? 'client');
  const mysqlUrl = `mysql://root@127.0.0.1:3306/${name}`;
  const prefix = `${name}:`;
  const closers = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch((e) => console.error('[harness] cleanup:', e.message));
  };
  try {
    let sim;
    if (opts.sim !== false) {
      ensureSimBuilt();
      const { startSimulator } = rootRequire(`${ROOT}/wechat-sim/dist/index.js`);
      sim = await startSimulator({ host: '127.0.0.1', port: 0, notifyRetryScale: 0.001 });
      closers.push(() => sim.close());
    }
    const { migrateUp } = serverDist('db/migrate.js');
    const { dropDatabase } = serverDist('db/pool.js');
    closers.push(() => dropDatabase(mysqlUrl));
    await migrateUp(mysqlUrl);
    const port = await freePort();
    const config = serverDist('config/index.js').loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      MYSQL_URL: mysqlUrl,
      REDIS_KEY_PREFIX: prefix,
      AMQP_PREFIX: name,
      CONSUMER_BACKOFF_MS: '100',
      JOBS_ENABLED: 'true',
      ROLE: 'all',
      H5_DIR: DIST_H5,
      AUTH_SECRET: DEV_SECRET,
      ...wechatEnv(sim?.url, port),
      // Overload protection off, as in the server's tests: this server shares its event loop with
      // the test's own Playwright driver, so on a busy CI machine its lag is the test's, not the
      // server's (a deep-link test once waited 30 s on a page whose load had been shed).
      SHED_EVENT_LOOP_LAG_MS: '0',
      SHED_INFLIGHT_MAX: '0',
      WECHAT_BREAKER_ERROR_PCT: '0',
      ...(opts.env ?? {}),
    });
    if (config.amqpUrl) closers.push(() => deleteAmqp(config.amqpUrl, config.amqpPrefix));
    const server = await serverDist('server.js').startServer(config, opts.clock ? { clock: opts.clock } : {});
    const redis = server.deps.redis;
    // Keys go after the server closes its Redis client, so delete them with a client of our own.
    const Redis = rootRequire('ioredis');
    closers.push(async () => {
      const r = new (Redis.default ?? Redis)(config.redisUrl, { lazyConnect: true });
      await r.connect();
      await deletePrefixed(r, prefix);
      await r.quit();
    });
    closers.push(() => server.close());
    await assertServesH5(server.url);
    return {
      name,
      mysqlUrl,
      prefix,
      config,
      server,
      deps: server.deps,
      redis,
      sim,
      apiUrl: server.url,
      appUrl: server.url,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The server's clock module (ManualClock: now(), advance(ms), set(ms)). */
export function clockModule() {
  return serverDist('clock.js');
}

/** A fan logged in as the mini-program does: a simulator login code traded at wx-login. */
export async function loginFan(stack, openid) {
  const { code } = stack.sim.login(openid);
  const res = await fetch(`${stack.apiUrl}/api/v1/auth/wx-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`wx-login failed: ${res.status} ${JSON.stringify(body)}`);
  return { token: body.token, userId: body.user.id };
}

/** Calls the API as a fan (JSON in and out); throws on error statuses. */
export async function api(stack, token, method, path, body) {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/** Polls fn until it answers truthy (payment notifications and ticket issuance are async). */
export const until = (fn, what, ms = 15_000) => pollUntil(fn, what, ms, 50);

/** A fan's bearer token minted directly with the server's dev secret (no WeChat round trip). */
export async function mintFanToken(stack, openid) {
  const { upsertUserByOpenid } = serverDist('users/repo.js');
  const { TokenService } = serverDist('http/auth.js');
  const userId = await upsertUserByOpenid(stack.deps.db, openid);
  const token = await new TokenService(stack.config.authSecret, 3600).issue({ userId, roles: ['fan'] });
  return { userId, token };
}
