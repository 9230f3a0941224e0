import { createPool, dropDatabase, ensureDatabase, type Db } from '../src/db/pool';
import { testConfig } from './helpers/env';

// MYSQL_QUERY_STACKS against a real MariaDB database of this file's own.
const url = testConfig().mysqlUrl;
const pools: Db[] = [];

beforeAll(() => ensureDatabase(url));
afterAll(async () => {
  for (const p of pools) await p.end();
  await dropDatabase(url);
});

/** A repo-like caller whose name a captured stack would show. */
async function readMissingTable(db: Db): Promise<Error> {
  return db.query('SELECT n FROM no_such_table').then(
    () => new Error('the query should have failed'),
    (err: Error) => err,
  );
}

it('off by default: no stack captured per query; a failed query still names its SQL and code', async () => {
  expect(testConfig().mysqlQueryStacks).toBe(false);
  expect(testConfig({ MYSQL_QUERY_STACKS: 'on' }).mysqlQueryStacks).toBe(true);
  expect(() => testConfig({ MYSQL_QUERY_STACKS: 'yes' })).toThrow(/MYSQL_QUERY_STACKS/);
  const db = createPool(url, 1, { queryStacks: testConfig().mysqlQueryStacks });
  pools.push(db);
  const err = (await readMissingTable(db)) as Error & { code?: string; sql?: string };
  expect(err.code).toBe('ER_NO_SUCH_TABLE');
  expect(err.sql).toBe('SELECT n FROM no_such_table');
  expect(err.stack).not.toContain('readMissingTable');
});

it('on: a failed query carries its caller’s stack', async () => {
  const db = createPool(url, 1, { queryStacks: true });
  pools.push(db);
  expect((await readMissingTable(db)).stack).toContain('readMissingTable');
});
