// What a test run left behind on the machine: databases, Redis key prefixes, RabbitMQ queues
// and exchanges, folders in the temporary directory, and processes. `npm test` takes a snapshot
// before its steps and one after; anything new is a leftover and fails the run (tests create and
// drop their own databases, prefixes and queues, and stop what they start). Read with the
// command-line tools of the Debian packages the services come from; a tool that is missing or
// a service that does not answer leaves that part unchecked, and the run says so (SKIPPED).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * Temporary folders whose names the project's code and tests choose (mkdtemp prefixes): a new
 * one after the run is ours, left behind. Other programs' (Chromium, npm, V8) are not counted.
 */
export const OWN_TMP =
  /^(showtix-|tk_test_|chaos-|nginx-layout-|free-port-|metered-|precompress-|cpuprofile-|allocprofile-|weapp-check-|wechat-sim-keys-|h5-)/;

/** Programs the tests start; a new one still running after the run is left behind. */
const STARTED = new Set(['redis-server', 'nginx', 'mariadbd', 'mysqld', 'prometheus']);

/** A process is the run's when it is one of those programs or runs from the repository. */
const isOurs = (p, root) => STARTED.has(p.comm) || p.args.includes(root);

function lines(cmd, args, env = {}) {
  const out = execFileSync(cmd, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return out.split('\n').filter(Boolean);
}

/** Runs a probe; on failure the part is unchecked, with why. */
function probe(part, fn) {
  try {
    return { part, items: fn() };
  } catch (e) {
    return {
      part,
      unchecked: `${e.code === 'ENOENT' ? 'tool not found' : 'it did not answer'} (${e.message.split('\n')[0]})`,
    };
  }
}

/** The services the run uses, as the server reads them (the machine's defaults when unset). */
export const serviceUrls = (env = process.env) => ({
  mysqlUrl: env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/showtix',
  redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
});

/** `mysql`'s arguments and environment (the password) for a MYSQL_URL. */
export function mysqlCli(mysqlUrl) {
  const u = new URL(mysqlUrl);
  const user = decodeURIComponent(u.username || 'root');
  return {
    args: ['-h', u.hostname, '-P', u.port || '3306', '-u', user],
    env: { MYSQL_PWD: decodeURIComponent(u.password) },
  };
}

function databases(mysqlUrl) {
  const { args, env } = mysqlCli(mysqlUrl);
  return lines('mysql', [...args, '-N', '-B', '-e', 'SHOW DATABASES'], env);
}

/** The key prefixes in Redis (a key up to its first ':'), not the keys: their count moves. */
function redisPrefixes(redisUrl) {
  const keys = lines('redis-cli', ['-u', redisUrl, '--scan']);
  return [...new Set(keys.map((k) => k.split(':')[0]))];
}

function rabbit(what) {
  return lines('rabbitmqctl', ['-q', what, 'name']).filter((n) => n !== 'name');
}

function processes() {
  return lines('ps', ['-eo', 'pid=,comm=,args=']).map((l) => {
    const [, pid, comm, args] = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l) ?? [];
    return { pid: Number(pid), comm, args };
  });
}

/** What is on the machine now, part by part. */
export function snapshot({ root, env = process.env, tmp = tmpdir() }) {
  const { mysqlUrl, redisUrl } = serviceUrls(env);
  const parts = [
    probe('MySQL databases', () => databases(mysqlUrl)),
    probe('Redis key prefixes', () => redisPrefixes(redisUrl)),
    probe('RabbitMQ queues', () => rabbit('list_queues')),
    probe('RabbitMQ exchanges', () => rabbit('list_exchanges')),
    probe('temporary folders', () => readdirSync(tmp).filter((n) => OWN_TMP.test(n))),
    probe('processes', () =>
      processes()
        .filter((p) => p.pid !== process.pid && isOurs(p, root))
        .map((p) => `${p.pid} ${p.args}`),
    ),
  ];
  return Object.fromEntries(parts.map((p) => [p.part, p]));
}

/**
 * What `after` has that `before` had not, part by part: `left` (part: item) and `unchecked`
 * (part: why) when either snapshot could not read a part.
 */
export function leftovers(before, after) {
  const left = [];
  const unchecked = [];
  for (const [part, a] of Object.entries(after)) {
    const b = before[part];
    if (!b || b.unchecked || a.unchecked) {
      unchecked.push({ part, why: a.unchecked ?? b?.unchecked ?? 'not read before the run' });
      continue;
    }
    const had = new Set(b.items);
    for (const item of a.items) if (!had.has(item)) left.push({ part, item });
  }
  return { left, unchecked };
}

/**
 * The last step of `npm test`: compares the machine with `before` (a stopped process may take a
 * moment to go, so a second look follows a first that found something) and prints what was left.
 * Returns a result shaped as scripts/steps.mjs's runSteps returns them.
 */
export async function leftoverStep(
  before,
  { root, name = 'nothing left behind', graceMs = 3_000, log = console.log },
) {
  const t0 = Date.now();
  let found = leftovers(before, snapshot({ root }));
  if (found.left.length) {
    await new Promise((r) => setTimeout(r, graceMs));
    found = leftovers(before, snapshot({ root }));
  }
  for (const { part, item } of found.left) log(`left behind: ${part}: ${item}`);
  return {
    name,
    status: found.left.length ? 'FAIL' : 'PASS',
    skips: found.unchecked.map(({ part, why }) => ({ step: part, reason: `not checked: ${why}` })),
    s: (Date.now() - t0) / 1000,
  };
}
