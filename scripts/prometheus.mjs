// A Prometheus (Debian's `prometheus` binary) scraping every process of a local topology, with
// deploy/prometheus/prometheus.yml and alerts.yml as they are. Node built-ins only.
//
//   node scripts/prometheus.mjs start --api 127.0.0.1:8091,127.0.0.1:8092 --workers 127.0.0.1:9401 \
//        [--port 9099] [--dir DIR] [--token METRICS_TOKEN] [--scrape-s 5]
//     runs in the foreground, prints {"url","dir","pid"} as JSON; Ctrl-C stops it (by its PID).
//
// scripts/cluster.mjs imports startPrometheus (or only writeTargets, for a Prometheus of its own):
//   const prom = await startPrometheus({ api: ['127.0.0.1:8091'], workers: ['127.0.0.1:9401'] });
//   prom.setTargets({ api, workers });   // after a process is added or restarted on another port
//   await prom.stop();
// The targets file is the file_sd format of deploy/prometheus/targets.example.json.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './lib/free-port.js';
import { root } from './lib.mjs';

const DEPLOY = path.join(root, 'deploy/prometheus');
const BINARY = process.env.PROMETHEUS_BIN ?? 'prometheus';

/** file_sd target groups: one per role, so dashboards can tell API processes from workers. */
export function targetGroups({ api = [], workers = [] }) {
  return [
    ...(api.length ? [{ targets: api, labels: { role: 'api' } }] : []),
    ...(workers.length ? [{ targets: workers, labels: { role: 'worker' } }] : []),
  ];
}

/** Writes the targets file whole (write, then rename): Prometheus never reads half of it. */
export function writeTargets(file, topology) {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(targetGroups(topology), null, 2)}\n`);
  renameSync(tmp, file);
}

/** The deploy config, with a shorter interval for a local run and the token when there is one. */
function writeConfig(dir, { token, scrapeS }) {
  let yml = readFileSync(path.join(DEPLOY, 'prometheus.yml'), 'utf8');
  if (scrapeS) yml = yml.replace(/(scrape|evaluation)_interval: 15s/g, `$1_interval: ${scrapeS}s`);
  if (token) {
    writeFileSync(path.join(dir, 'metrics-token'), token, { mode: 0o600 });
    yml = yml.replace('# authorization:', 'authorization:');
  }
  writeFileSync(path.join(dir, 'prometheus.yml'), yml);
  copyFileSync(path.join(DEPLOY, 'alerts.yml'), path.join(dir, 'alerts.yml'));
}

async function waitReady(url, child, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > end) throw new Error(`prometheus not ready at ${url} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts Prometheus on 127.0.0.1:port (a free one by default) in dir (a new temp dir by default,
 * removed on stop), scraping the given API and worker addresses (host:port).
 */
export async function startPrometheus({ api = [], workers = [], port, dir, token, scrapeS = 5 } = {}) {
  const own = !dir;
  const home = dir ?? mkdtempSync(path.join(tmpdir(), 'showtix-prometheus-'));
  mkdirSync(home, { recursive: true });
  writeConfig(home, { token, scrapeS });
  const targetsFile = path.join(home, 'targets', 'showtix.json');
  writeTargets(targetsFile, { api, workers });
  const listen = `127.0.0.1:${port ?? (await freePort())}`;
  const child = spawn(
    BINARY,
    [
      `--config.file=${path.join(home, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(home, 'data')}`,
      '--storage.tsdb.retention.time=2h',
      `--web.listen-address=${listen}`,
      '--web.enable-lifecycle',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (b) => (log = (log + b).slice(-4000)));
  const url = `http://${listen}`;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitReady(url, child, 20_000);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    if (own) rmSync(home, { recursive: true, force: true });
    throw new Error(`${err.message}\n${log}`, { cause: err });
  }
  return {
    url,
    dir: home,
    pid: child.pid,
    setTargets: (topology) => writeTargets(targetsFile, topology),
    /** Stops it (SIGTERM to its PID: a clean TSDB close) and removes a dir of its own. */
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      if (own) rmSync(home, { recursive: true, force: true });
    },
  };
}

function arg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const list = (v) => (v ? v.split(',').filter(Boolean) : []);

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] !== 'start') {
    console.error(
      'usage: node scripts/prometheus.mjs start --api h:p,... --workers h:p,... [--port N] [--dir D]',
    );
    process.exit(2);
  }
  const prom = await startPrometheus({
    api: list(arg('api')),
    workers: list(arg('workers')),
    port: arg('port') ? Number(arg('port')) : undefined,
    dir: arg('dir'),
    token: arg('token') ?? process.env.METRICS_TOKEN,
    scrapeS: arg('scrape-s') ? Number(arg('scrape-s')) : undefined,
  });
  console.log(JSON.stringify({ url: prom.url, dir: prom.dir, pid: prom.pid }));
  const stop = () => void prom.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
