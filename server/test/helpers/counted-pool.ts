import type { Db } from '../../src/db/pool';

/**
 * The real pool, its calls counted: `query` (a statement of its own) and `getConnection` (a
 * transaction's connection, whose statements are not counted here). For tests that show how
 * many round trips a path takes, against the real MariaDB.
 */
export function countedPool(db: Db): { calls: { query: number; getConnection: number }; db: Db } {
  const calls = { query: 0, getConnection: 0 };
  const counted = new Proxy(db, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      if (typeof v !== 'function') return v;
      const f = (v as (...args: unknown[]) => unknown).bind(target);
      if (key !== 'query' && key !== 'getConnection') return f;
      return (...args: unknown[]) => {
        calls[key]++;
        return f(...args);
      };
    },
  });
  return { calls, db: counted };
}
