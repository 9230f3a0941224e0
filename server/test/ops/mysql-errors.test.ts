import type { PoolConnection } from 'mysql2/promise';
import { toAppError } from '../../src/http/errors';
import { createTestEnv, type TestEnv } from '../helpers/env';

/**
 * A write refused for a lock (its transaction chosen as a deadlock's victim, or waiting on a
 * lock past innodb_lock_wait_timeout; the transaction helpers roll back what InnoDB did not)
 * wrote nothing, and the request may simply run again: it answers 503
 * SERVICE_UNAVAILABLE with Retry-After: 1 (the client repeats a safe request by itself), not 500
 * INTERNAL (a buyer's cancel answered 500 when it met the expiry job in a deadlock, issue 14).
 * The errors are real MariaDB's.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
  await env.deps.db.query('CREATE TABLE lock_probe (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB');
  await env.deps.db.query('INSERT INTO lock_probe VALUES (1, 0), (2, 0)');
});
afterAll(() => env.close());

async function twoConnections<T>(fn: (a: PoolConnection, b: PoolConnection) => Promise<T>): Promise<T> {
  const a = await env.deps.db.getConnection();
  const b = await env.deps.db.getConnection();
  try {
    await a.beginTransaction();
    await b.beginTransaction();
    return await fn(a, b);
  } finally {
    for (const c of [a, b]) {
      await c.rollback().catch(() => undefined);
      c.release();
    }
  }
}

/** The code, status and headers a request that failed with `err` answers. */
const answer = (err: unknown) => {
  const e = toAppError(err);
  return [e.code, e.status, e.headers];
};

const bump = (c: PoolConnection, id: number) => c.query('UPDATE lock_probe SET v = v + 1 WHERE id = ?', [id]);

describe('MySQL rolled the transaction back: 503, to be retried', () => {
  it('a deadlock', async () => {
    const err = await twoConnections(async (a, b) => {
      await bump(a, 1);
      await bump(b, 2);
      // Crossed: each waits on the other's row; InnoDB kills one at once.
      const r = await Promise.allSettled([bump(a, 2), bump(b, 1)]);
      return r.find((x) => x.status === 'rejected')?.reason as unknown;
    });
    expect((err as { code?: string }).code).toBe('ER_LOCK_DEADLOCK');
    expect(answer(err)).toEqual(['SERVICE_UNAVAILABLE', 503, { 'Retry-After': '1' }]);
  });

  it('a lock wait past its timeout', async () => {
    const err = await twoConnections(async (a, b) => {
      await b.query('SET SESSION innodb_lock_wait_timeout = 1');
      await bump(a, 1);
      return bump(b, 1).then(
        () => undefined,
        (e: unknown) => e,
      );
    });
    expect((err as { code?: string }).code).toBe('ER_LOCK_WAIT_TIMEOUT');
    expect(answer(err)).toEqual(['SERVICE_UNAVAILABLE', 503, { 'Retry-After': '1' }]);
  });

  it('a refused statement stays INTERNAL', async () => {
    const err = await env.deps.db.query('SELECT no_such_column FROM lock_probe').catch((e: unknown) => e);
    expect(toAppError(err).code).toBe('INTERNAL');
  });
});
