// A private MariaDB primary (binary log, GTID) and a read-only replica of it, from Debian's
// mariadbd / mariadb-install-db, on free ports in a directory of their own. The machine's
// MariaDB (3306, /etc/mysql, /var/lib/mysql) is never touched: every invocation passes
// --defaults-file FIRST, or /etc/mysql/my.cnf would point both at the system datadir.
// Node built-ins only.
//
//   node scripts/mariadb-replica.mjs start [dir]          prints {"dir","primary","replica"} as JSON
//   node scripts/mariadb-replica.mjs stop <dir>           stops both (by PID) and removes dir
//   node scripts/mariadb-replica.mjs restart-replica <dir> [kill9]
//   node scripts/mariadb-replica.mjs stop-replica <dir> [kill9] | start-replica <dir>
//   node scripts/mariadb-replica.mjs sql <dir> primary|replica "<SQL>"   (root, over the socket)
//
// The replica suite (server/test/replica), scripts/cluster.mjs and the cluster bench import it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { alive } from './lib/alive.mjs';
import { freePort } from './lib/free-port.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The account replication uses; the replica is read_only and the app's reads need no more. */
const REPL_USER = 'repl';
const REPL_PASSWORD = 'replpw';

// tmpdir is each instance's own: a starting mariadbd deletes every '#sql*' file in its tmpdir,
// so with the default /tmp a restarted replica deleted the primary's (and the machine's MariaDB's)
// temporary tables under running queries, which then failed with EE_DELETE.
function cnf(dir, name, serverId, port, replica) {
  const d = path.join(dir, name);
  return `[mysqld]
user=root
datadir=${d}/data
socket=${d}/mysqld.sock
pid-file=${d}/mysqld.pid
tmpdir=${d}/tmp
log-error=${d}/error.log
port=${port}
bind-address=127.0.0.1
skip-name-resolve
server-id=${serverId}
log-bin=${d}/data/binlog
binlog_format=ROW
log_slave_updates=ON
gtid_strict_mode=ON
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
innodb_buffer_pool_size=64M
innodb_log_file_size=32M
innodb_flush_log_at_trx_commit=2
sync_binlog=0
max_connections=300
table_definition_cache=400
performance_schema=OFF
${replica ? `read_only=ON\nrelay_log=${d}/data/relay-bin\n` : ''}`;
}

function sql(dir, name, query) {
  const r = spawnSync(
    'mariadb',
    ['--no-defaults', '-uroot', '-S', path.join(dir, name, 'mysqld.sock'), '-N', '-e', query],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`mariadb ${name}: ${query}: ${r.stderr}`);
  return r.stdout.trim();
}

function pidOf(dir, name) {
  const file = path.join(dir, name, 'pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8'));
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmd.includes('mariadbd') && cmd.includes(path.join(dir, name)) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Starts one instance from its own defaults file and waits until its socket answers. */
async function startInstance(dir, name) {
  const file = path.join(dir, `${name}.cnf`);
  const child = spawn('mariadbd', [`--defaults-file=${file}`], { detached: true, stdio: 'ignore' });
  child.unref();
  writeFileSync(path.join(dir, name, 'pid'), String(child.pid));
  const end = Date.now() + 30_000;
  for (;;) {
    const ping = spawnSync('mariadb-admin', [
      '--no-defaults',
      '-uroot',
      '-S',
      path.join(dir, name, 'mysqld.sock'),
      'ping',
    ]);
    if (ping.status === 0) return child.pid;
    if (!alive(child.pid) || Date.now() > end)
      throw new Error(`mariadbd ${name} did not start: see ${path.join(dir, name, 'error.log')}`);
    await sleep(50);
  }
}

async function stopInstance(dir, name, signal = 'SIGTERM') {
  const pid = pidOf(dir, name);
  if (!pid) return;
  process.kill(pid, signal);
  const end = Date.now() + 20_000;
  while (alive(pid) && Date.now() < end) await sleep(50);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

function install(dir, name) {
  mkdirSync(path.join(dir, name, 'data'), { recursive: true });
  mkdirSync(path.join(dir, name, 'tmp'), { recursive: true });
  const r = spawnSync(
    'mariadb-install-db',
    [
      `--defaults-file=${path.join(dir, `${name}.cnf`)}`,
      '--skip-test-db',
      '--auth-root-authentication-method=normal',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`mariadb-install-db ${name}: ${r.stderr}`);
}

/**
 * Primary + replica on free ports under dir (a new temp dir by default). Root on 127.0.0.1 has
 * no password on these private instances. Returns their URLs (no database: callers add one).
 */
export async function startReplicaPair(dir = mkdtempSync(path.join(tmpdir(), 'showtix-mariadb-'))) {
  const [pPort, rPort] = [await freePort(), await freePort()];
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'primary.cnf'), cnf(dir, 'primary', 1, pPort, false));
  writeFileSync(path.join(dir, 'replica.cnf'), cnf(dir, 'replica', 2, rPort, true));
  try {
    install(dir, 'primary');
    install(dir, 'replica');
    await startInstance(dir, 'primary');
    await startInstance(dir, 'replica');
    // Both fresh installs wrote their own GTIDs: start the replica from the primary's empty state.
    sql(dir, 'replica', 'RESET MASTER');
    sql(
      dir,
      'primary',
      `CREATE USER '${REPL_USER}'@'127.0.0.1' IDENTIFIED BY '${REPL_PASSWORD}'; ` +
        `GRANT REPLICATION SLAVE ON *.* TO '${REPL_USER}'@'127.0.0.1'`,
    );
    sql(
      dir,
      'replica',
      `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${pPort}, MASTER_USER='${REPL_USER}', ` +
        `MASTER_PASSWORD='${REPL_PASSWORD}', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1, ` +
        `MASTER_HEARTBEAT_PERIOD=1; START SLAVE`,
    );
    await caughtUp(dir);
  } catch (err) {
    await stopReplicaPair(dir);
    throw err;
  }
  const info = {
    dir,
    primary: `mysql://root@127.0.0.1:${pPort}`,
    replica: `mysql://root@127.0.0.1:${rPort}`,
    primaryPort: pPort,
    replicaPort: rPort,
  };
  writeFileSync(path.join(dir, 'pair.json'), JSON.stringify(info));
  return info;
}

/** Waits until the replica has applied everything the primary has written so far. */
export async function caughtUp(dir, timeoutS = 20) {
  const pos = sql(dir, 'primary', 'SELECT @@gtid_binlog_pos');
  const r = sql(dir, 'replica', `SELECT MASTER_GTID_WAIT('${pos}', ${timeoutS})`);
  if (r !== '0') throw new Error(`replica did not catch up with ${pos} in ${timeoutS} s`);
}

/** Runs SQL on one of the pair as root over its socket (tests stop and start the SQL thread). */
export const pairSql = sql;

/** Stops the replica (gracefully, or kill -9) and starts it again; replication resumes by itself. */
export async function restartReplica(dir, { kill9 = false, downMs = 0 } = {}) {
  await stopInstance(dir, 'replica', kill9 ? 'SIGKILL' : 'SIGTERM');
  if (downMs) await sleep(downMs);
  await startInstance(dir, 'replica');
}

export const stopReplica = (dir) => stopInstance(dir, 'replica');
export const startReplica = (dir) => startInstance(dir, 'replica');
export const replicaPid = (dir) => pidOf(dir, 'replica');
export const primaryPid = (dir) => pidOf(dir, 'primary');

/** Stops both instances this script started in dir (checked by PID and command line), removes dir. */
export async function stopReplicaPair(dir) {
  if (!existsSync(dir)) return;
  await Promise.all([stopInstance(dir, 'replica'), stopInstance(dir, 'primary')]);
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [cmd, dir, opt] = process.argv.slice(2);
  if (cmd === 'start') {
    const p = await startReplicaPair(dir);
    console.log(JSON.stringify(p));
    console.log(
      `MYSQL_URL=${p.primary}/showtix MYSQL_REPLICA_URL=${p.replica}/showtix   ` +
        `(stop: node scripts/mariadb-replica.mjs stop ${p.dir})`,
    );
  } else if (cmd === 'stop' && dir) {
    await stopReplicaPair(dir);
  } else if (cmd === 'restart-replica' && dir) {
    await restartReplica(dir, { kill9: opt === 'kill9' });
  } else if (cmd === 'stop-replica' && dir) {
    await stopInstance(dir, 'replica', opt === 'kill9' ? 'SIGKILL' : 'SIGTERM');
  } else if (cmd === 'start-replica' && dir) {
    await startInstance(dir, 'replica');
  } else if (cmd === 'sql' && dir && opt) {
    console.log(sql(dir, opt, process.argv[5]));
  } else {
    console.error(
      'usage: node scripts/mariadb-replica.mjs start [dir] | stop <dir> | restart-replica <dir> [kill9] | ' +
        'stop-replica <dir> [kill9] | start-replica <dir> | sql <dir> primary|replica <SQL>',
    );
    process.exit(2);
  }
}
