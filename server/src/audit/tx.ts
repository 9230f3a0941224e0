import { inTransaction, type Conn, type Db } from '../db/pool';
import { recordAudit, type AuditInput } from './repo';
import type { Actor } from './actor';

/**
 * UPDATE one row of `table` by id, setting the columns whose value is not undefined (null sets
 * NULL): what a PATCH changes. Nothing to set sends no statement. Table and column names are
 * ours, never the client's.
 */
export async function updateById(
  c: Conn,
  table: string,
  id: string,
  columns: Record<string, unknown>,
): Promise<void> {
  const set = Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length) await c.query('UPDATE ?? SET ? WHERE id = ?', [table, set, id]);
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
