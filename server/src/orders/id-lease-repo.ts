import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';

/**
 * The order-id nodes' leases (table id_nodes), timed by MySQL's own clock (NOW(3)): see
 * IdNodeLease in id-lease.ts for why a node can never be held by two live instances.
 */

/** Gives the node back, recording the last millisecond used. */
export async function releaseNode(db: Db, node: number, holder: string, highestMs: number): Promise<void> {
  await db.query(
    `UPDATE id_nodes SET holder = NULL, expires_at = NOW(3), last_ms = GREATEST(last_ms, ?)
        WHERE node = ? AND holder = ?`,
    [highestMs, node, holder],
  );
}

/** Extends the holder's lease; false if another instance took the node meanwhile. */
export async function renewNode(
  db: Db,
  node: number,
  holder: string,
  leaseMs: number,
  highestMs: number,
): Promise<boolean> {
  const [res] = await db.query<ResultSetHeader>(
    `UPDATE id_nodes SET expires_at = DATE_ADD(NOW(3), INTERVAL ? MICROSECOND),
                  last_ms = GREATEST(last_ms, ?)
            WHERE node = ? AND holder = ?`,
    [leaseMs * 1000, highestMs, node, holder],
  );
  return res.affectedRows === 1;
}

/**
 * Leases the node whose lease expired longest ago (never-used nodes first) to this holder, and
 * answers it with the last millisecond its previous holder reported; undefined if none was taken.
 */
export async function takeExpiredNode(
  db: Db,
  holder: string,
  leaseMs: number,
): Promise<{ node: number; lastMs: number } | undefined> {
  // A competing instance may lock the same row first; the loser re-checks the row's expiry
  // after the lock wait and matches nothing, so it simply tries again.
  const [res] = await db.query<ResultSetHeader>(
    `UPDATE id_nodes SET holder = ?, expires_at = DATE_ADD(NOW(3), INTERVAL ? MICROSECOND)
          WHERE expires_at < NOW(3) ORDER BY expires_at, node LIMIT 1`,
    [holder, leaseMs * 1000],
  );
  if (res.affectedRows !== 1) return undefined;
  const [rows] = await db.query<(RowDataPacket & { node: number; last_ms: number | string })[]>(
    'SELECT node, last_ms FROM id_nodes WHERE holder = ?',
    [holder],
  );
  return { node: Number(rows[0]!.node), lastMs: Number(rows[0]!.last_ms) };
}
