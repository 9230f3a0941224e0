import type { ResultSetHeader } from 'mysql2/promise';
import type { Conn, Db } from '../db/pool';
import { byKey } from '../db/sql';

/** One event of a lifecycle (see transitions.ts): the from-states it applies to, the state it leads to. */
export interface Transition {
  readonly from: readonly number[];
  readonly to: number;
}

/** A row that should have moved did not: someone changed it behind the caller's lock. */
export class TransitionError extends Error {}

type Table = 'orders' | 'refunds' | 'tickets' | 'exchanges' | 'waitlist_entries';

/**
 * Moves one row by one event if it is in a from-state; `set` adds columns (names are code,
 * never input). Returns whether it moved.
 */
export async function tryMove(
  db: Db | Conn,
  table: Table,
  id: string,
  t: Transition,
  set: Record<string, unknown> = {},
): Promise<boolean> {
  const cols = Object.keys(set);
  const [res] = await db.query<ResultSetHeader>(
    `UPDATE ${byKey(table)} SET status = ?${cols.map((c) => `, ${c} = ?`).join('')} WHERE id = ? AND status IN (?)`,
    [t.to, ...cols.map((c) => set[c]), id, t.from],
  );
  return res.affectedRows === 1;
}

/** The same where the caller locked the row and checked its state: it must move. */
export async function move(
  db: Db | Conn,
  table: Table,
  id: string,
  t: Transition,
  set: Record<string, unknown> = {},
): Promise<void> {
  if (!(await tryMove(db, table, id, t, set)))
    throw new TransitionError(`${table} ${id}: not in ${t.from.join('/')}, cannot move to ${t.to}`);
}

/** move for several rows the caller locked and checked: every one must move (`set` as tryMove's, one value for all). */
export async function moveMany(
  db: Db | Conn,
  table: Table,
  ids: readonly string[],
  t: Transition,
  set: Record<string, unknown> = {},
): Promise<void> {
  if (ids.length === 0) return;
  const cols = Object.keys(set);
  const [res] = await db.query<ResultSetHeader>(
    `UPDATE ${byKey(table)} SET status = ?${cols.map((c) => `, ${c} = ?`).join('')} WHERE id IN (?) AND status IN (?)`,
    [t.to, ...cols.map((c) => set[c]), ids, t.from],
  );
  if (res.affectedRows !== ids.length)
    throw new TransitionError(
      `${table} ${ids.join(',')}: ${res.affectedRows} of ${ids.length} in ${t.from.join('/')}, cannot move to ${t.to}`,
    );
}
