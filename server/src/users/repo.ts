import type { ResultSetHeader } from 'mysql2/promise';
import type { Db } from '../db/pool';

/** Finds or creates the user of a WeChat openid; returns the user id. */
export async function upsertUserByOpenid(db: Db, openid: string): Promise<string> {
  const [res] = await db.query<ResultSetHeader>(
    'INSERT INTO users (openid) VALUES (?) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)',
    [openid],
  );
  return String(res.insertId);
}
