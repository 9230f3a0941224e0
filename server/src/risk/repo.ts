import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { SESSION_STATUS } from '../catalog/types';

/**
 * Sessions a hold can still be placed in, or soon (presale, on sale, sold out: seats come back):
 * where a user's hold cooldown is written (risk/service.ts).
 */
export async function liveSessionIds(db: Db): Promise<string[]> {
  const [rows] = await db.query<RowDataPacket[]>('SELECT id FROM show_sessions WHERE status IN (?)', [
    [SESSION_STATUS.PRESALE, SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT],
  ]);
  return rows.map((r) => String(r.id));
}
