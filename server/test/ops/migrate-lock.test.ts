import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { migrateUp, MIGRATIONS_DIR, pendingMigrations } from '../../src/db/migrate';
import { connectionOptions, dropDatabase } from '../../src/db/pool';

const BASE_MYSQL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

describe('migrations under a lock', () => {
  const url = `${BASE_MYSQL}/tk_test_mig_${process.pid}_${randomBytes(4).toString('hex')}`;
  afterAll(() => dropDatabase(url));

  it('three instances racing on a fresh database: one migrates, the others wait, each migration runs once', async () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.up.sql'));
    // Three "instances" start at the same moment, each with its own connections.
    const results = await Promise.allSettled([migrateUp(url), migrateUp(url), migrateUp(url)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const applied = results.map((r) => (r as PromiseFulfilledResult<string[]>).value);
    // Exactly one applied them all; the two that waited found nothing left.
    expect(applied.map((a) => a.length).sort((a, b) => a - b)).toEqual([0, 0, files.length]);

    const conn = await mysql.createConnection(connectionOptions(url));
    try {
      const [rows] = await conn.query('SELECT name, COUNT(*) n FROM schema_migrations GROUP BY name');
      expect((rows as { n: number }[]).length).toBe(files.length);
      expect(await pendingMigrations(conn)).toEqual([]);
    } finally {
      await conn.end();
    }
  });

  it('a fourth instance starting later applies nothing', async () => {
    expect(await migrateUp(url)).toEqual([]);
  });
});
