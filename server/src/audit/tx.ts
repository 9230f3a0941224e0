import { inTransaction, type Conn, type Db } from '../db/pool';
import { recordAudit, type AuditInput } from './repo';
import type { Actor } from './actor';

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
