import { readFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import { Umzug, type UmzugStorage } from 'umzug';
import { connectionOptions, ensureDatabase } from './pool';

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

async function withMigrator<T>(url: string, fn: (m: ReturnType<typeof migrator>) => Promise<T>): Promise<T> {
  await ensureDatabase(url);
  const conn = await mysql.createConnection({ ...connectionOptions(url), multipleStatements: true });
  try {
    await conn.query("SET time_zone = '+00:00'"); // applied_at, like every stored time, is UTC
    return await fn(migrator(conn));
  } finally {
    await conn.end();
  }
}

/** Applies every pending migration; returns the names applied. */
export function migrateUp(url: string): Promise<string[]> {
  return withMigrator(url, async (m) => (await m.up()).map((x) => x.name));
}

/** Reverts every migration (tests use it to prove the down scripts work). */
export function migrateDownAll(url: string): Promise<string[]> {
  return withMigrator(url, async (m) => (await m.down({ to: 0 })).map((x) => x.name));
}
