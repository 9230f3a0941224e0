import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { createTestEnv, type TestEnv } from '../helpers/env';

/**
 * Reads that may be a second stale go to a real MariaDB replica (GTID replication from a
 * private primary, scripts/mariadb-replica.mjs) while its lag is known and small; otherwise, and
 * whenever the replica is down, to the primary, without a failed request.
 */
const DIR = process.env.TEST_REPLICA_DIR!;
const SCRIPT = path.resolve(__dirname, '../../../scripts/mariadb-replica.mjs');
const NAME = `tk_test_rep_${process.pid}_${randomBytes(3).toString('hex')}`;
/** A show only the replica has (written there without a binary log): seen only when reads go there. */
const REPLICA_ONLY = '只在副本上的演出';

/** The limit the suite runs with (MYSQL_REPLICA_MAX_LAG_MS). */
const MAX_LAG_MS = 2000;

// Asynchronous on purpose: a synchronous child process would freeze this process's event loop,
// and with it the router's own lag checks, so the age of the last check (which counts as lag)
// would send reads to the primary for the wrong reason, or a check started before the freeze
// would be answered after it.
const exec = promisify(execFile);
const script = async (...args: string[]) =>
  (await exec('node', [SCRIPT, ...args], { encoding: 'utf8' })).stdout;
const onReplica = (sql: string) => script('sql', DIR, 'replica', sql);
const onPrimary = (sql: string) => script('sql', DIR, 'primary', sql);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not reached in ${ms} ms`);
    await sleep(100);
  }
}

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({
    MYSQL_URL: `${process.env.TEST_REPLICA_PRIMARY}/${NAME}`,
    MYSQL_REPLICA_URL: `${process.env.TEST_REPLICA_REPLICA}/${NAME}`,
    // Generous for a loaded CI machine: the age of the last measurement counts as lag.
    MYSQL_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
  });
  await env.deps.db.query("INSERT INTO venues (id, name) VALUES (990002, '主库场馆')");
  await caughtUp();
  await onReplica(
    `SET sql_log_bin = 0; INSERT INTO ${NAME}.venues (id, name) VALUES (990001, '副本场馆'); ` +
      `INSERT INTO ${NAME}.shows (id, title, venue_id) VALUES (990001, '${REPLICA_ONLY}', 990001)`,
  );
});
afterAll(async () => {
  try {
    await onReplica(
      `SET sql_log_bin = 0; DELETE FROM ${NAME}.shows WHERE id = 990001; DELETE FROM ${NAME}.venues WHERE id = 990001`,
    );
  } finally {
    await env.close();
  }
});

async function target(): Promise<string> {
  await env.deps.replica.check();
  return env.deps.replica.state().target;
}

/**
 * Reads on the replica with nothing left to apply. Tests that expect a read there start from
 * this: on a loaded machine the replica can be a good part of the limit behind (the schema, a
 * previous test's writes), and a lag just under the limit turns reads to the primary a moment later.
 */
const caughtUp = () =>
  until(
    'the replica caught up',
    async () => (await target()) === 'replica' && env.deps.replica.state().lagMs === 0,
  );

const serverId = async (db: { query: TestEnv['deps']['db']['query'] }, sql = 'SELECT @@server_id AS id') =>
  Number((await db.query<RowDataPacket[]>(sql))[0][0]!.id);
const titles = async () => (await env.deps.catalog.listShows()).map((s) => s.title);

it('plain reads go to the replica; writes, locking reads and transactions go to the primary', async () => {
  await caughtUp();
  const { db, readDb } = env.deps;
  expect(await serverId(db)).toBe(1);
  expect(await serverId(readDb)).toBe(2);
  expect(await serverId(readDb, 'SELECT @@server_id AS id FROM DUAL FOR UPDATE')).toBe(1);
  const conn = await readDb.getConnection();
  try {
    expect(Number((await conn.query<RowDataPacket[]>('SELECT @@server_id AS id'))[0][0]!.id)).toBe(1);
  } finally {
    conn.release();
  }
  // Root ignores read_only on the replica: had this reached it, it would exist there only.
  await readDb.query("INSERT INTO venues (name) VALUES ('经读连接写入')");
  const [rows] = await db.query<RowDataPacket[]>("SELECT COUNT(*) n FROM venues WHERE name = '经读连接写入'");
  expect(Number(rows[0]!.n)).toBe(1);
  // The public show list is one of those reads.
  expect(await titles()).toContain(REPLICA_ONLY);
});

it('a replica missing a table (a migration not applied there, a broken set-up): reads of it are answered by the primary', async () => {
  // Written without a binary log: the replica never gets this table.
  await onPrimary(
    `SET sql_log_bin = 0; CREATE TABLE ${NAME}.primary_only (id INT PRIMARY KEY); ` +
      `INSERT INTO ${NAME}.primary_only VALUES (7)`,
  );
  try {
    await caughtUp();
    const [rows] = await env.deps.readDb.query<RowDataPacket[]>('SELECT id FROM primary_only');
    expect(rows.map((r) => Number(r.id))).toEqual([7]);
    // A query wrong everywhere still fails, with the primary's error.
    await expect(env.deps.readDb.query('SELECT id FROM no_such_table_anywhere')).rejects.toMatchObject({
      code: 'ER_NO_SUCH_TABLE',
    });
  } finally {
    await onPrimary(`SET sql_log_bin = 0; DROP TABLE ${NAME}.primary_only`);
  }
});

it('a read the replica refuses for a reason of its own (seen: EE_DELETE about a temporary table) is answered by the primary', async () => {
  // Without a binary log on either side: a table on the primary, a view of a dropped table of the
  // same name on the replica, which answers every read of it with ER_VIEW_INVALID.
  await onPrimary(
    `SET sql_log_bin = 0; CREATE TABLE ${NAME}.replica_odd (id INT PRIMARY KEY); INSERT INTO ${NAME}.replica_odd VALUES (7)`,
  );
  await onReplica(
    `SET sql_log_bin = 0; CREATE TABLE ${NAME}.odd_base (id INT); ` +
      `CREATE VIEW ${NAME}.replica_odd AS SELECT id FROM ${NAME}.odd_base; DROP TABLE ${NAME}.odd_base`,
  );
  try {
    await caughtUp();
    const [rows] = await env.deps.readDb.query<RowDataPacket[]>('SELECT id FROM replica_odd');
    expect(rows.map((r) => Number(r.id))).toEqual([7]);
  } finally {
    await onReplica(`SET sql_log_bin = 0; DROP VIEW ${NAME}.replica_odd`);
    await onPrimary(`SET sql_log_bin = 0; DROP TABLE ${NAME}.replica_odd`);
  }
});

/**
 * From now on for `ms`: every read the router sends to the replica must already see `title`
 * (written longer than MAX_LAG_MS ago, so a replica without it is too far behind to be asked).
 */
async function everyReplicaReadSees(title: string, ms: number): Promise<number> {
  let onReplicaReads = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if ((await target()) === 'replica') {
      const state = JSON.stringify(env.deps.replica.state());
      if (!(await titles()).includes(title))
        throw new Error(`a read reached the replica before it had '${title}' (router: ${state})`);
      onReplicaReads++;
    }
    await sleep(20);
  }
  return onReplicaReads;
}

it('replication stopped (lag unknown): reads fall back to the primary, and return once it runs', async () => {
  await onReplica('STOP SLAVE SQL_THREAD');
  try {
    expect(await target()).toBe('primary');
    expect(env.deps.replica.state().reason).toMatch(/not running/);
    await env.deps.db.query("INSERT INTO shows (title, venue_id) VALUES ('刚在主库上架', 990002)");
    const seen = await titles();
    expect(seen).toContain('刚在主库上架');
    expect(seen).not.toContain(REPLICA_ONLY);
    // Stopped until the write is older than the limit: from the restart on, a replica without it
    // is too far behind. (A write younger than the limit may still be missing on a replica the
    // router uses: that is the staleness MYSQL_REPLICA_MAX_LAG_MS allows, so it proves nothing.)
    await sleep(MAX_LAG_MS + 200);
    expect(await target()).toBe('primary');
  } finally {
    await onReplica('START SLAVE SQL_THREAD');
  }
  await everyReplicaReadSees('刚在主库上架', 3000);
  await until('reads back on the replica', async () => (await target()) === 'replica');
  const seen = await titles();
  expect(seen).toContain(REPLICA_ONLY);
  expect(seen).toContain('刚在主库上架');
});

it('lag above MYSQL_REPLICA_MAX_LAG_MS (GTID lag: Seconds_Behind_Master reads 0 after a restart): reads fall back to the primary until it has caught up', async () => {
  // A replica told to apply everything 6 s late: measured lag climbs past the 2 s limit.
  await onReplica('STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 6; START SLAVE');
  try {
    await env.deps.db.query("INSERT INTO shows (title, venue_id) VALUES ('延迟复制', 990002)");
    // The lag itself, not only the age of a slow check on a loaded machine, is above the limit.
    await until(
      'lag measured above the limit',
      async () => (await target()) === 'primary' && (env.deps.replica.state().lagMs ?? 0) > MAX_LAG_MS,
      15_000,
    );
    expect(await titles()).toContain('延迟复制');
  } finally {
    await onReplica('STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 0; START SLAVE');
  }
  // From the restart of replication on: whenever reads go to the replica, they see the row.
  // (Seconds_Behind_Master reads 0 before the replica has even fetched it: a stale window.)
  await everyReplicaReadSees('延迟复制', 4000);
  await until('reads back on the replica', async () => (await target()) === 'replica');
  expect(await titles()).toContain('延迟复制');
});

it('Seconds_Behind_Master reads 0 with both threads running while the replica misses a write (stamped ahead of its clock): the GTID lag sends reads to the primary', async () => {
  // Events the primary stamps 30 s ahead (its clock ahead of the replica's) wait on a delayed
  // replica for 32 s, and Seconds_Behind_Master, counted from those stamps, reads 0 all along.
  await onReplica('STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 2; START SLAVE');
  const replicaConn = await createConnection(process.env.TEST_REPLICA_REPLICA!);
  try {
    await caughtUp();
    await onPrimary(
      `SET TIMESTAMP = UNIX_TIMESTAMP() + 30; ` +
        `INSERT INTO ${NAME}.shows (title, venue_id) VALUES ('时钟超前', 990002)`,
    );
    await until(
      'lag measured above the limit',
      async () => (await target()) === 'primary' && (env.deps.replica.state().lagMs ?? 0) > MAX_LAG_MS,
      15_000,
    );
    const [[status]] = await replicaConn.query<RowDataPacket[]>('SHOW SLAVE STATUS');
    expect(status).toMatchObject({ Slave_IO_Running: 'Yes', Slave_SQL_Running: 'Yes' });
    expect(Number(status!.Seconds_Behind_Master)).toBe(0);
    await everyReplicaReadSees('时钟超前', 2000);
    expect(await titles()).toContain('时钟超前');
  } finally {
    await replicaConn.end();
    await onReplica('STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 0; START SLAVE');
  }
  await caughtUp();
  expect(await titles()).toContain('时钟超前');
});

it.each([['graceful'], ['kill9']])(
  'replica restart (%s) mid-traffic: not one read fails, reads return to the replica',
  async (how) => {
    let answered = 0;
    let stop = false;
    const errors: unknown[] = [];
    const reader = (async () => {
      while (!stop) {
        try {
          await env.deps.catalog.listShows();
          await env.deps.readDb.query('SELECT COUNT(*) FROM shows');
          answered++;
        } catch (err) {
          errors.push(err);
        }
        await sleep(20);
      }
    })();
    // A temporary table's file of another server sharing the machine's tmpdir (the primary's, the
    // machine's MariaDB's): a starting mariadbd deletes every '#sql*' file in its own tmpdir, so a
    // replica restarted with /tmp as its tmpdir deleted it, and the query using it failed.
    const othersTemp = path.join(tmpdir(), `#sql-showtix-probe-${process.pid}-${how}.MAI`);
    writeFileSync(othersTemp, '');
    try {
      await sleep(300);
      await script('stop-replica', DIR, ...(how === 'kill9' ? ['kill9'] : []));
      await until('reads on the primary', async () => (await target()) === 'primary');
      await env.deps.db.query('INSERT INTO shows (title, venue_id) VALUES (?, 990002)', [
        `副本停机时上架-${how}`,
      ]);
      await sleep(500);
      await script('start-replica', DIR);
      await until('reads back on the replica', async () => (await target()) === 'replica');
      await sleep(300);
      expect(existsSync(othersTemp)).toBe(true);
    } finally {
      rmSync(othersTemp, { force: true });
      stop = true;
      await reader;
      try {
        await onReplica('SELECT 1');
      } catch {
        await script('start-replica', DIR);
      }
    }
    // The errors themselves, so that a failure says which one got through.
    expect(errors.map((e) => `${(e as { code?: string }).code}: ${String(e)}`)).toEqual([]);
    expect(answered).toBeGreaterThan(10);
    // It caught up by itself (GTID position) with what was written while it was down.
    await until('caught up', async () => (await titles()).includes(`副本停机时上架-${how}`));
    await until(
      `reads on the replica (${JSON.stringify(env.deps.replica.state())})`,
      async () => (await serverId(env.deps.readDb)) === 2,
      10_000,
    );
  },
);
