import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';

/** The id of the show with this title, if one is there (the demo seed runs once). */
export async function showIdByTitle(db: Db, title: string): Promise<string | undefined> {
  const [rows] = await db.query<(RowDataPacket & { id: string })[]>('SELECT id FROM shows WHERE title = ?', [
    title,
  ]);
  return rows[0] ? String(rows[0].id) : undefined;
}

/** Sets a show's purchase limit (per buyer, across its sessions). */
export async function setShowPurchaseLimit(db: Db, showId: string, limit: number): Promise<void> {
  await db.query('UPDATE shows SET show_purchase_limit = ? WHERE id = ?', [limit, showId]);
}
