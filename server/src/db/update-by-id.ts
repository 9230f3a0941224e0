import type { Conn } from './pool';

/**
 * UPDATE one row of `table` by id, setting the columns whose value is not undefined (null sets
 * NULL): what a PATCH changes. Nothing to set sends no statement. Table and column names are
 * ours, never the client's: only repos call it, each for its own table.
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
