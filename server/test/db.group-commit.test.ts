import type { RowDataPacket } from 'mysql2/promise';
import { GroupCommit, inRoundTripTransaction, type Pending } from '../src/db/group-commit';
import { createPool, dropDatabase, ensureDatabase, type Db } from '../src/db/pool';
import { testConfig } from './helpers/env';

// The group-commit scheduler on its own, against a real MariaDB database of this file's own.
const url = testConfig().mysqlUrl;
let pool: Db;

beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4, { multipleStatements: true });
  await pool.query('CREATE TABLE gc_items (n INT PRIMARY KEY, batch INT NOT NULL)');
});

afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
});

/** A flush that writes each batch as one multi-row INSERT transaction; duplicates refuse the batch. */
function writer(o: { batchMax: number; inflightMax: number }) {
  const batches: number[][] = [];
  let inflight = 0;
  let peak = 0;
  class Writer extends GroupCommit<number> {
    write = (n: number) => this.submit(n);
    protected async flush(batch: Pending<number>[]): Promise<void> {
      inflight++;
      peak = Math.max(peak, inflight);
      const no = batches.push(batch.map((p) => p.item));
      try {
        const values = batch.map((p) => `(${p.item}, ${no})`).join(', ');
        await inRoundTripTransaction(pool, (conn) =>
          conn.query(`START TRANSACTION; INSERT INTO gc_items (n, batch) VALUES ${values}; COMMIT`),
        );
        batch.forEach((p) => p.resolve());
      } finally {
        inflight--;
      }
    }
  }
  return { commits: new Writer(o), batches, peak: () => peak };
}

async function rows(): Promise<{ n: number; batch: number }[]> {
  const [r] = await pool.query<RowDataPacket[]>('SELECT n, batch FROM gc_items ORDER BY n');
  return r.map((x) => ({ n: Number(x.n), batch: Number(x.batch) }));
}

beforeEach(async () => {
  await pool.query('DELETE FROM gc_items');
});

it('items submitted together go out as one transaction; each caller waits for its commit', async () => {
  const w = writer({ batchMax: 100, inflightMax: 2 });
  await Promise.all([1, 2, 3, 4, 5].map((n) => w.commits.write(n)));
  expect(w.batches).toEqual([[1, 2, 3, 4, 5]]);
  expect(await rows()).toEqual([1, 2, 3, 4, 5].map((n) => ({ n, batch: 1 })));
  await w.commits.drained();
});

it('batches are cut at batchMax, and no more than inflightMax are in flight at once', async () => {
  const w = writer({ batchMax: 3, inflightMax: 2 });
  const items = Array.from({ length: 10 }, (_, i) => i + 1);
  await Promise.all(items.map((n) => w.commits.write(n)));
  expect(w.batches.map((b) => b.length)).toEqual([3, 3, 3, 1]);
  expect(w.batches.flat().sort((a, b) => a - b)).toEqual(items);
  expect(w.peak()).toBeLessThanOrEqual(2);
  expect((await rows()).map((r) => r.n)).toEqual(items);
});

it('a refused batch rejects its callers, rolls back, and the writer keeps going', async () => {
  const w = writer({ batchMax: 100, inflightMax: 1 });
  await w.commits.write(7);
  const refused = await Promise.allSettled([w.commits.write(8), w.commits.write(7)]);
  expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  expect((await rows()).map((r) => r.n)).toEqual([7]); // 8 was rolled back with its batch
  await w.commits.write(9);
  expect((await rows()).map((r) => r.n)).toEqual([7, 9]);
});

it('drained() waits for what is queued and in flight', async () => {
  const w = writer({ batchMax: 2, inflightMax: 1 });
  const done = [1, 2, 3, 4, 5].map((n) => w.commits.write(n));
  await w.commits.drained();
  expect((await rows()).length).toBe(5);
  await Promise.all(done);
});
