import type { RowDataPacket } from 'mysql2/promise';
import type { Conn, Db } from './pool';

/** Where one table's single-row lookups read from; table and columns are code, never user input. */
export interface RowSource {
  table: string;
  columns: string;
  /** Picks which row wins when the condition matches several (e.g. the latest). */
  orderBy?: string;
}

/**
 * The one-row lookup every repo needs: callers pass a parameterised condition, and lock=true
 * takes the row lock inside a transaction (FOR UPDATE) so a concurrent writer waits for it.
 */
export async function findOne<T>(
  db: Db | Conn,
  from: RowSource,
  where: string,
  params: unknown[],
  lock = false,
): Promise<T | undefined> {
  const order = from.orderBy ? ` ORDER BY ${from.orderBy}` : '';
  const [rows] = await db.query<RowDataPacket[]>(
    `SELECT ${from.columns} FROM ${from.table} WHERE ${where}${order} LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows[0] as T | undefined;
}
