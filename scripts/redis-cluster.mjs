// A local Redis Cluster (3 masters + 3 replicas) from Debian's redis-server, on ports of its own
// in a directory of its own; nothing is shared with the machine's Redis. Node built-ins only.
//
//   node scripts/redis-cluster.mjs start [dir]   starts it, prints {"dir","nodes"} as JSON
//   node scripts/redis-cluster.mjs stop <dir>    stops every node it started there, removes dir
//   node scripts/redis-cluster.mjs restart-node <dir> <port>   a killed node rejoins (as a replica)
//
// The test suite (server/test/cluster) imports startRedisCluster / stopRedisCluster.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { alive } from './lib/alive.mjs';
import { portFree } from './lib/free-port.js';

/** 2000 ms: a master failover takes 3-4 s (the default 15000 ms takes ~18 s). */
const NODE_TIMEOUT_MS = 2000;
const SIZE = 6;

/** Six consecutive free ports whose cluster-bus ports (+10000) are free too. */
async function freePorts() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 25000);
    const ports = Array.from({ length: SIZE }, (_, i) => base + i);
    let ok = true;
    for (const p of ports) if (!(await portFree(p)) || !(await portFree(p + 10000))) ok = false;
    if (ok) return ports;
  }
  throw new Error('no free ports for a Redis Cluster');
}

function cli(port, ...args) {
  const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
  // redis-cli colours its output even into a pipe
  return (r.stdout ?? '').replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, cond, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`Redis Cluster: ${what} not reached in ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Starts one node (again) from its own dir; its nodes.conf brings it back into the cluster. */
export function startNode(dir, port) {
  const nodeDir = path.join(dir, String(port));
  mkdirSync(nodeDir, { recursive: true });
  // no persistence, diskless sync without delay (replicas are in sync ~2 s after start)
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--protected-mode',
    'no',
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    path.join(nodeDir, 'nodes.conf'),
    '--cluster-node-timeout',
    String(NODE_TIMEOUT_MS),
    '--dir',
    nodeDir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--repl-diskless-sync-delay',
    '0',
    '--repl-diskless-load',
    'on-empty-db',
    '--logfile',
    path.join(nodeDir, 'redis.log'),
  ];
  const child = spawn('redis-server', args, { detached: true, stdio: 'ignore' });
  child.unref();
  writeFileSync(path.join(nodeDir, 'pid'), String(child.pid));
  return child.pid;
}

/** The PID of a node this script started, if it still runs as redis-server on that port. */
export function nodePid(dir, port) {
  const file = path.join(dir, String(port), 'pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8'));
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmd.includes('redis-server') && cmd.includes(String(port)) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function clusterState(port) {
  return /cluster_state:(\w+)/.exec(cli(port, 'cluster', 'info'))?.[1];
}

/** Master ports by the slot ranges they serve, from CLUSTER NODES of a live node. */
export function masters(port) {
  return cli(port, 'cluster', 'nodes')
    .split('\n')
    .filter((l) => / master /.test(l.replace('myself,master', ' master ')) && !l.includes('fail'))
    .map((l) => {
      const f = l.split(' ');
      return {
        port: Number(/:(\d+)@/.exec(f[1])[1]),
        ranges: f.slice(8).map((r) => r.split('-').map(Number)),
      };
    });
}

/** The port of the master serving a slot (ask any live node). */
export function masterOfSlot(port, slot) {
  return masters(port).find((m) => m.ranges.some(([a, b = a]) => slot >= a && slot <= b))?.port;
}

export async function startRedisCluster(dir = mkdtempSync(path.join(tmpdir(), 'showtix-redis-cluster-'))) {
  const ports = await freePorts();
  for (const p of ports) startNode(dir, p);
  await until(
    'every node answering PING',
    () => ports.every((p) => cli(p, 'ping').trim() === 'PONG'),
    10_000,
  );
  const create = spawnSync(
    'redis-cli',
    [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ],
    { encoding: 'utf8' },
  );
  if (create.status !== 0 || !/All 16384 slots covered/.test(create.stdout)) {
    await stopRedisCluster(dir);
    throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  }
  await until('cluster_state:ok on every node', () => ports.every((p) => clusterState(p) === 'ok'));
  await until('every replica in sync', () =>
    ports.every((p) => {
      const info = cli(p, 'info', 'replication');
      return info.includes('role:master') || info.includes('master_link_status:up');
    }),
  );
  const nodes = ports.map((p) => `127.0.0.1:${p}`);
  writeFileSync(path.join(dir, 'cluster.json'), JSON.stringify({ dir, ports, nodes }));
  return { dir, ports, nodes };
}

/** Stops every node started in dir (checked by PID and command line) and removes dir. */
export async function stopRedisCluster(dir) {
  if (!existsSync(dir)) return;
  const pids = [];
  for (const entry of spawnSync('ls', [dir], { encoding: 'utf8' }).stdout.split('\n')) {
    const port = Number(entry);
    const pid = port ? nodePid(dir, port) : undefined;
    if (pid) {
      process.kill(pid, 'SIGTERM');
      pids.push(pid);
    }
  }
  const gone = (pid) => !alive(pid);
  const end = Date.now() + 5000;
  while (!pids.every(gone) && Date.now() < end) await sleep(50);
  for (const pid of pids) if (!gone(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [cmd, dir] = process.argv.slice(2);
  if (cmd === 'start') {
    const c = await startRedisCluster(dir ? (mkdirSync(dir, { recursive: true }), dir) : undefined);
    console.log(JSON.stringify({ dir: c.dir, nodes: c.nodes.join(',') }));
    console.log(
      `REDIS_CLUSTER_NODES=${c.nodes.join(',')}   (stop: node scripts/redis-cluster.mjs stop ${c.dir})`,
    );
  } else if (cmd === 'restart-node' && dir && process.argv[4]) {
    startNode(dir, Number(process.argv[4]));
  } else if (cmd === 'stop' && dir) {
    await stopRedisCluster(dir);
  } else {
    console.error(
      'usage: node scripts/redis-cluster.mjs start [dir] | stop <dir> | restart-node <dir> <port>',
    );
    process.exit(2);
  }
}
