import { DIST_H5, ROOT, rootRequire, serverDist } from './paths.mjs';
import { ensureH5Built, ensureServerBuilt, ensureSimBuilt } from './build.mjs';
import { startStatic } from './static.mjs';

const DEV_SECRET = 'development-only-secret-never-use-in-production!';

/** A name no other run on this machine uses, valid for MySQL and as a Redis key prefix. */
export function uniqueName(tag) {
  return `showtix_${tag}_${process.pid}_${Date.now().toString(36)}`;
}

async function deleteKeys(redis, prefix) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Does the API server serve the H5 build at / itself? Then no static server is needed. */
async function serverServesH5(url) {
  try {
    const res = await fetch(`${url}/`);
    return res.ok && (await res.text()).includes('id="app"');
  } catch {
    return false;
  }
}

/**
 * The real back end for browser tests and the benchmark, in this process: its own MySQL
 * database and Redis key prefix (dropped in close()), the server from its compiled helpers,
 * optionally the WeChat simulator, and the H5 build on one origin with /api.
 *
 * opts.env: extra server environment, or a function of the simulator URL returning it (for
 *           wiring the server's WeChat base URLs to the simulator once the server has them).
 * opts.sim: start the WeChat simulator (default true).
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
    const extra = typeof opts.env === 'function' ? opts.env(sim?.url) : opts.env ?? {};
    const config = serverDist('config/index.js').loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      MYSQL_URL: mysqlUrl,
      REDIS_KEY_PREFIX: prefix,
      AUTH_SECRET: DEV_SECRET,
      ...extra,
    });
    const server = await serverDist('server.js').startServer(config);
    const redis = server.deps.redis;
    // Keys go after the server closes its Redis client, so delete them with a client of our own.
    const Redis = rootRequire('ioredis');
    closers.push(async () => {
      const r = new (Redis.default ?? Redis)(config.redisUrl, { lazyConnect: true });
      await r.connect();
      await deleteKeys(r, prefix);
      await r.quit();
    });
    closers.push(() => server.close());
    let appUrl = server.url;
    if (!(await serverServesH5(server.url))) {
      const st = await startStatic(DIST_H5, server.url);
      closers.push(() => st.close());
      appUrl = st.url;
    }
    return { name, mysqlUrl, prefix, config, server, deps: server.deps, redis, sim, apiUrl: server.url, appUrl, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A fan's bearer token, minted directly (until WeChat login is on the server). */
export async function mintFanToken(stack, openid) {
  const { upsertUserByOpenid } = serverDist('users/repo.js');
  const { TokenService } = serverDist('http/auth.js');
  const userId = await upsertUserByOpenid(stack.deps.db, openid);
  const token = await new TokenService(stack.config.authSecret, 3600).issue({ userId, roles: ['fan'] });
  return { userId, token };
}
