import type { SealedAttendee } from '../attendees/crypto';
import { SEALED_COLUMNS, sealedValues, type SealedColumnsRow } from '../attendees/repo';
import { inTransaction, unlessDuplicate, type Conn, type Db } from '../db/pool';
import { tryMove, type Transition } from '../lifecycle/transitions';
import type { Rows } from '../db/rows';

/**
 * A real-name entry's attendees, in unit order (position 0..n-1, the order's own positions
 * later). False when one of their IDs is already in another live entry of the session (the
 * unique key on (session, id hash, live)): the caller refuses the join.
 */
export async function insertAttendees(
  conn: Conn,
  entryId: string,
  sessionId: string,
  list: SealedAttendee[],
): Promise<boolean> {
  const rows = list.map((a, i) => [entryId, i, sessionId, ...sealedValues(a)]);
  return unlessDuplicate(false, async () => {
    await conn.query(
      `INSERT INTO waitlist_attendees (entry_id, position, session_id, ${SEALED_COLUMNS}) VALUES ?`,
      [rows],
    );
    return true;
  });
}

/** The ID hashes of these that hold a ticket or a pending order of the session now. */
export async function heldIdHashes(conn: Conn, sessionId: string, idHashes: string[]): Promise<string[]> {
  const [rows] = await conn.query<Rows<{ id_hash: string }>>(
    'SELECT id_hash FROM attendee_claims WHERE session_id = ? AND id_hash IN (?)',
    [sessionId, idHashes],
  );
  return rows.map((r) => String(r.id_hash));
}

/** The ID hashes of these that another live entry of the session names (waiting or offered). */
export async function waitingIdHashes(conn: Conn, sessionId: string, idHashes: string[]): Promise<string[]> {
  const [rows] = await conn.query<Rows<{ id_hash: string }>>(
    'SELECT id_hash FROM waitlist_attendees WHERE session_id = ? AND id_hash IN (?) AND live = 1',
    [sessionId, idHashes],
  );
  return rows.map((r) => String(r.id_hash));
}

/** An entry's attendees as sealed (what its offer's order stores), in unit order. */
export async function attendeesOf(db: Db | Conn, entryId: string): Promise<SealedAttendee[]> {
  const [rows] = await db.query<Rows<SealedColumnsRow>>(
    `SELECT ${SEALED_COLUMNS} FROM waitlist_attendees WHERE entry_id = ? ORDER BY position`,
    [entryId],
  );
  return rows.map((r) => ({
    idType: String(r.id_type),
    nameEnc: String(r.name_enc),
    idNumberEnc: String(r.id_number_enc),
    nameMasked: String(r.name_masked),
    idMasked: String(r.id_masked),
    idHash: String(r.id_hash),
  }));
}

/**
 * Moves a live entry out of WAITING/OFFERED (clearing its `live` mark) and frees its attendees'
 * IDs for the line in the same transaction, so an ID is never held by an entry that ended.
 */
export async function endEntry(
  db: Db,
  entryId: string,
  t: Transition,
  now: Date,
  reason: string | null = null,
): Promise<boolean> {
  return inTransaction(db, async (conn) => {
    const set = { live: null, ended_at: now, end_reason: reason };
    const moved = await tryMove(conn, 'waitlist_entries', entryId, t, set);
    if (moved) await conn.query('UPDATE waitlist_attendees SET live = NULL WHERE entry_id = ?', [entryId]);
    return moved;
  });
}
