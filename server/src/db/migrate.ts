import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import type { Connection, Pool } from 'mysql2/promise';
import { Umzug, type UmzugStorage } from 'umzug';
import { connectionOptions, databaseName, ensureDatabase } from './pool';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/** Umzug storage in a MySQL table, so the record of applied migrations lives with the data. */
class MysqlStorage implements UmzugStorage {
  constructor(private readonly conn: Connection) {}
  private async ensureTable() {
    await this.conn.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name VARCHAR(255) NOT NULL PRIMARY KEY,
         applied_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))`,
    );
  }
  async executed(): Promise<string[]> {
    await this.ensureTable();
    const [rows] = await this.conn.query('SELECT name FROM schema_migrations ORDER BY name');
    return (rows as { name: string }[]).map((r) => r.name);
  }
  async logMigration({ name }: { name: string }) {
    await this.conn.query('INSERT INTO schema_migrations (name) VALUES (?)', [name]);
  }
  async unlogMigration({ name }: { name: string }) {
    await this.conn.query('DELETE FROM schema_migrations WHERE name = ?', [name]);
  }
}

function migrator(conn: Connection) {
  const run = (file: string) => async () => {
    await conn.query(readFileSync(file, 'utf8'));
  };
  return new Umzug({
    migrations: {
      glob: ['*.up.sql', { cwd: MIGRATIONS_DIR }],
      resolve: ({ name, path: file }) => ({
        name: name.replace(/\.up\.sql$/, ''),
        up: run(file!),
        down: run(file!.replace(/\.up\.sql$/, '.down.sql')),
      }),
    },
    storage: new MysqlStorage(conn),
    logger: undefined,
  });
}

/** Default wait for another instance's migrations (MIGRATE_LOCK_TIMEOUT_S overrides it). */
export const MIGRATE_LOCK_TIMEOUT_S = 300;

/**
 * Runs fn holding the database's migration lock (MySQL GET_LOCK, named after the database), so
 * of several instances starting at once only one migrates; the others wait for it, then find
 * nothing left to do. The lock belongs to this connection: if the process dies, MySQL frees it.
 */
async function withMigrator<T>(
  url: string,
  fn: (m: ReturnType<typeof migrator>) => Promise<T>,
  lockTimeoutS = MIGRATE_LOCK_TIMEOUT_S,
): Promise<T> {
  await ensureDatabase(url);
  const conn = await mysql.createConnection({ ...connectionOptions(url), multipleStatements: true });
  const lock = `showtix-migrate:${databaseName(url)}`.slice(0, 64);
  try {
    await conn.query("SET time_zone = '+00:00'"); // applied_at, like every stored time, is UTC
    const [rows] = await conn.query('SELECT GET_LOCK(?, ?) AS got', [lock, lockTimeoutS]);
    if ((rows as { got: number | null }[])[0]?.got !== 1)
      throw new Error(`another instance held the migration lock for over ${lockTimeoutS} s`);
    try {
      return await fn(migrator(conn));
    } finally {
      await conn.query('SELECT RELEASE_LOCK(?)', [lock]).catch(() => undefined);
    }
  } finally {
    await conn.end();
  }
}

/** Applies every pending migration under the migration lock; returns the names this call applied. */
export function migrateUp(url: string, lockTimeoutS?: number): Promise<string[]> {
  return withMigrator(url, async (m) => (await m.up()).map((x) => x.name), lockTimeoutS);
}

/** Reverts every migration (tests use it to prove the down scripts work). */
export function migrateDownAll(url: string): Promise<string[]> {
  return withMigrator(url, async (m) => (await m.down({ to: 0 })).map((x) => x.name));
}

/** Migration files not yet recorded as applied in this database (readiness waits for none). */
export async function pendingMigrations(db: Pool | Connection): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.up.sql'))
    .map((f) => f.replace(/\.up\.sql$/, ''));
  let done: string[] = [];
  try {
    const [rows] = await db.query('SELECT name FROM schema_migrations');
    done = (rows as { name: string }[]).map((r) => r.name);
  } catch {
    /* no table yet: nothing applied */
  }
  return files.filter((f) => !done.includes(f));
}
