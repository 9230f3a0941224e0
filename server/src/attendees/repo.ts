import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import type { SealedAttendee } from './crypto';

/** A sealed attendee's stored columns, and its values in that order (orders' and waiting entries' rows). */
export const SEALED_COLUMNS = 'id_type, name_enc, id_number_enc, name_masked, id_masked, id_hash';

/** The sealed attendee's columns as stored (SEALED_COLUMNS), in orders' and waiting entries' rows. */
export interface SealedColumnsRow {
  id_type: string;
  name_enc: string;
  id_number_enc: string;
  name_masked: string;
  id_masked: string;
  id_hash: string;
}

export function sealedValues(a: SealedAttendee): string[] {
  return [a.idType, a.nameEnc, a.idNumberEnc, a.nameMasked, a.idMasked, a.idHash];
}

/** A saved attendee as stored (user_attendees): name and ID number encrypted, masks in clear. */
export interface SavedAttendeeRow {
  id: string;
  idType: string;
  nameEnc: string;
  idNumberEnc: string;
  nameMasked: string;
  idMasked: string;
}

export async function listSaved(db: Db, userId: string): Promise<SavedAttendeeRow[]> {
  const [rows] = await db.query<RowDataPacket[]>(
    'SELECT id, id_type, name_enc, id_number_enc, name_masked, id_masked FROM user_attendees WHERE user_id = ? ORDER BY id',
    [userId],
  );
  return rows.map((r) => ({
    id: String(r.id),
    idType: String(r.id_type),
    nameEnc: String(r.name_enc),
    idNumberEnc: String(r.id_number_enc),
    nameMasked: String(r.name_masked),
    idMasked: String(r.id_masked),
  }));
}

export async function countSaved(db: Db, userId: string): Promise<number> {
  const [[count]] = await db.query<RowDataPacket[]>(
    'SELECT COUNT(*) n FROM user_attendees WHERE user_id = ?',
    [userId],
  );
  return Number(count!.n);
}

/** The new row's id; the same ID saved twice by one user throws ER_DUP_ENTRY (id_hash is unique per user). */
export async function insertSaved(db: Db, userId: string, s: SealedAttendee): Promise<string> {
  const [res] = await db.query<ResultSetHeader>(
    `INSERT INTO user_attendees (user_id, id_type, name_enc, id_number_enc, name_masked, id_masked, id_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [userId, s.idType, s.nameEnc, s.idNumberEnc, s.nameMasked, s.idMasked, s.idHash],
  );
  return String(res.insertId);
}

/** Whether a row of this user's was deleted. */
export async function deleteSaved(db: Db, userId: string, id: string): Promise<boolean> {
  const [res] = await db.query<ResultSetHeader>('DELETE FROM user_attendees WHERE id = ? AND user_id = ?', [
    id,
    userId,
  ]);
  return res.affectedRows > 0;
}

/**
 * The SQL join from an order item to its real-name attendee. An order writes its attendees with
 * `position` = the index of their item among the order's items in id order (orders/insert-repo.ts writes
 * both lists in the same order), so the attendee of item `oi` is the one whose position counts the
 * order's items before it. One home for that rule: the order view, the ticket wallet and the gate.
 */
export function attendeeOfItemJoin(item: string, attendee = 'oa'): string {
  return `LEFT JOIN order_attendees ${attendee} ON ${attendee}.order_id = ${item}.order_id
        AND ${attendee}.position = (SELECT COUNT(*) FROM order_items x WHERE x.order_id = ${item}.order_id AND x.id < ${item}.id)`;
}
