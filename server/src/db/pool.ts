import mysql from 'mysql2/promise';
import type { Pool, PoolConnection } from 'mysql2/promise';
import { queryFormat, SQL_TIME_ZONE } from './sql';

export type Db = Pool;
export type Conn = PoolConnection;

/** Parses mysql://user:pass@host:port/db into mysql2 options; BIGINTs come back as strings. */
export function connectionOptions(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    database: u.pathname.replace(/^\//, '') || undefined,
    supportBigNumbers: true,
    bigNumberStrings: true,
    timezone: SQL_TIME_ZONE,
    charset: 'utf8mb4',
    queryFormat,
  };
}

export function databaseName(url: string): string {
  const name = new URL(url).pathname.replace(/^\//, '');
  if (!/^\w+$/.test(name)) throw new Error(`MYSQL_URL must name a database ([A-Za-z0-9_]+), got "${name}"`);
  return name;
}

export interface PoolOptions {
  /**
   * Only for the order writer, whose SQL is built entirely by formatSql (UTC dates): it sends a
   * whole batch transaction in one round trip.
   */
  multipleStatements?: boolean;
  /**
   * MYSQL_QUERY_STACKS: mysql2 captures the caller's stack at every query, for the error it may
   * raise. With the deep async stacks of a payment (notify, workflow steps, consumers) that was
   * 9.6% of the server's samples while notifications were being ticketed (issue 14,
   * 2026-12-04). Off, a failed query's error still names its SQL (err.sql) and code; its stack
   * ends in the driver.
   */
  queryStacks?: boolean;
}

export function createPool(url: string, size: number, o: PoolOptions = {}): Db {
  const pool = mysql.createPool({
    ...connectionOptions(url),
    connectionLimit: size,
    waitForConnections: true,
    multipleStatements: o.multipleStatements ?? false,
    trace: o.queryStacks ?? false,
  });
  pool.pool.on('connection', (conn) => {
    // DATETIME columns hold UTC; make NOW()/CURRENT_TIMESTAMP agree with the driver's timezone 'Z'.
    conn.query("SET time_zone = '+00:00'");
    // No gap locks: concurrent batches inserting neighbouring claims must not block each other.
    conn.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
  });
  return pool;
}

/** Creates the database named in the URL if it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const conn = await mysql.createConnection({ ...connectionOptions(url), database: undefined });
  try {
    await conn.query(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await conn.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const conn = await mysql.createConnection({ ...connectionOptions(url), database: undefined });
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await conn.end();
  }
}

/** Runs fn in a (READ COMMITTED) transaction; rolls back on any error and rethrows it. */
export async function inTransaction<T>(db: Db, fn: (conn: Conn) => Promise<T>): Promise<T> {
  const conn = await db.getConnection();
  try {
    await conn.beginTransaction();
    const result = await fn(conn);
    await conn.commit();
    return result;
  } catch (err) {
    await conn.rollback().catch(() => undefined);
    throw err;
  } finally {
    conn.release();
  }
}

export function sqlErrno(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null && 'errno' in err ? Number(err.errno) : undefined;
}

export const ER_DUP_ENTRY = 1062;

/** Runs a write that a unique key may refuse (someone was there first): `refused` is then the answer. */
export async function unlessDuplicate<T, F>(refused: F, write: () => Promise<T>): Promise<T | F> {
  try {
    return await write();
  } catch (err) {
    if (sqlErrno(err) === ER_DUP_ENTRY) return refused;
    throw err;
  }
}
/** CHECK constraint violated: MariaDB reports 4025, MySQL 8 reports 3819. */
export const ER_CHECK_FAILED = [4025, 3819];
