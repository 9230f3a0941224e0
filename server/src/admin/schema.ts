import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';

/**
 * Whether a table exists in the current database. The admin reads tables other issues own
 * (tickets, refunds, check-ins, attendees) and must keep working on a database without them.
 * Only "yes" is cached: a table can appear with a later migration, never disappear.
 */
const known = new WeakMap<Db, Set<string>>();

export async function tableExists(db: Db, table: string): Promise<boolean> {
  const seen = known.get(db) ?? new Set<string>();
  known.set(db, seen);
  if (seen.has(table)) return true;
  const [rows] = await db.query<RowDataPacket[]>(
    'SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?',
    [table],
  );
  if (rows.length) seen.add(table);
  return rows.length > 0;
}

export async function columnsOf(db: Db, table: string): Promise<Set<string>> {
  const [rows] = await db.query<RowDataPacket[]>(
    'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?',
    [table],
  );
  return new Set(rows.map((r) => String(r.c).toLowerCase()));
}
