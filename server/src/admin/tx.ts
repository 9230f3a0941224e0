import type { Conn, Db } from '../db/pool';
import { inTransaction } from '../db/pool';
import { recordAudit, type AuditInput } from './audit/repo';
import type { Actor } from './http';

/**
 * A Db whose queries run on `conn`, inside the caller's transaction. The catalog's writers
 * (insertVenue, insertSession) open their own transaction on the Db they are given; through
 * this adapter their BEGIN/COMMIT become no-ops, so the change and its audit entry commit
 * together or not at all.
 */
export function joinTransaction(conn: Conn): Db {
  const inner = new Proxy(conn, {
    get(target, prop, receiver) {
      if (prop === 'beginTransaction' || prop === 'commit' || prop === 'rollback' || prop === 'release') {
        return async () => undefined;
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return new Proxy(conn, {
    get(target, prop, receiver) {
      if (prop === 'getConnection') return async () => inner;
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as unknown as Db;
}

export type AuditOf<T> = Omit<AuditInput, 'actor'> | ((result: T) => Omit<AuditInput, 'actor'>);

/** Runs a change and writes its audit entry in one transaction. */
export async function audited<T>(
  db: Db,
  who: Actor,
  now: Date,
  change: (conn: Conn) => Promise<T>,
  entry: AuditOf<T>,
): Promise<T> {
  return inTransaction(db, async (conn) => {
    const result = await change(conn);
    const e = typeof entry === 'function' ? entry(result) : entry;
    await recordAudit(conn, { ...e, actor: who }, now);
    return result;
  });
}
