import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Conn, Db } from '../db/pool';
import { formatSql } from '../db/sql';

/** A join as the queue script answered it, to be recorded before the fan hears it. */
export interface JoinRecord {
  sessionId: string;
  userId: string;
  /** null: in the pre-sale pool (place drawn when the sale opens). */
  place: number | null;
  idHash: string | null;
  joinedAt: Date;
  /** The Redis queue's epoch the place came from (see queue_rooms.epoch). */
  epoch: number;
}

export interface RoomRow {
  epoch: number;
  seed: string | null;
  openedAt: Date | null;
  poolSize: number | null;
  drawn: boolean;
  admittedThrough: number;
}

export interface EntryRow {
  userId: string;
  place: number | null;
  presale: boolean;
  idHash: string | null;
  joinedAtMs: number;
  turnStartMs: number | null;
}

/**
 * Whether MySQL recorded the fan in the session's waiting room with a place Redis should still
 * hold: no turn yet, or one that started after turnsFrom (an ended turn's place is given up in
 * Redis only). A point read of the primary key.
 */
export async function hasLiveEntry(
  db: Db,
  sessionId: string,
  userId: string,
  turnsFrom: Date,
): Promise<boolean> {
  const [rows] = await db.query<RowDataPacket[]>(
    'SELECT 1 FROM queue_entries WHERE session_id = ? AND user_id = ? AND (turn_start IS NULL OR turn_start > ?)',
    [sessionId, userId, turnsFrom],
  );
  return rows.length > 0;
}

/**
 * Joins of one group commit: a place only grows (a second join after an ended turn queues at the
 * back and starts no turn yet), a pool member keeps the place its draw gave it, and replaying a
 * record changes nothing, so batches may land in any order.
 */
function joinInsertSql(rows: JoinRecord[]): string {
  return formatSql(
    `INSERT INTO queue_entries (session_id, user_id, place, presale, id_hash, joined_at) VALUES ?
       ON DUPLICATE KEY UPDATE
         turn_start = IF(VALUES(place) > COALESCE(place, 0), NULL, turn_start),
         place = IF(VALUES(place) IS NULL, place, GREATEST(COALESCE(place, 0), VALUES(place))),
         id_hash = COALESCE(VALUES(id_hash), id_hash)`,
    [rows.map((r) => [r.sessionId, r.userId, r.place, r.place === null ? 1 : 0, r.idHash, r.joinedAt])],
  );
}

/** The rooms' epochs, read under a shared lock that a rebuild (FOR UPDATE) waits for. */
function epochsSql(sessionIds: string[]): string {
  return formatSql('SELECT session_id, epoch FROM queue_rooms WHERE session_id IN (?) LOCK IN SHARE MODE', [
    sessionIds,
  ]);
}

/** One queue_rooms row. */
interface QueueRoomDbRow extends RowDataPacket {
  session_id: string;
  epoch: number;
  seed: string | null;
  opened_at: Date | null;
  pool_size: number | null;
  drawn: number;
  admitted_through: number;
}

/** One queue_entries row. */
interface QueueEntryDbRow extends RowDataPacket {
  session_id: string;
  user_id: string;
  place: number | null;
  presale: number;
  id_hash: string | null;
  joined_at: Date;
  turn_start: Date | null;
}

/** A room's epoch as the join log reads it. */
interface RoomEpochRow extends RowDataPacket {
  session_id: string;
  epoch: number;
}

/**
 * Opens the join log's transaction and reads the rooms' epochs under the shared lock, in one
 * round trip (a connection with multipleStatements): session id -> epoch.
 */
export async function beginWithEpochs(conn: Conn, sessionIds: string[]): Promise<Map<string, number>> {
  const [results] = await conn.query<RoomEpochRow[][]>(`START TRANSACTION; ${epochsSql(sessionIds)}`);
  return new Map(results[1]!.map((r) => [String(r.session_id), Number(r.epoch)]));
}

/** Upserts the joins (if any) and commits the transaction beginWithEpochs opened, in one round trip. */
export async function insertJoinsAndCommit(conn: Conn, joins: JoinRecord[]): Promise<void> {
  await conn.query(joins.length ? `${joinInsertSql(joins)}; COMMIT` : 'COMMIT');
}

/** Locks the room for a rebuild (creating its row the first time) and bumps its epoch. */
export async function lockRoomForRebuild(conn: Conn, sessionId: string): Promise<RoomRow> {
  await conn.query('INSERT IGNORE INTO queue_rooms (session_id) VALUES (?)', [sessionId]);
  await conn.query('UPDATE queue_rooms SET epoch = epoch + 1 WHERE session_id = ?', [sessionId]);
  type Read = 'epoch' | 'seed' | 'opened_at' | 'pool_size' | 'drawn' | 'admitted_through';
  const [rows] = await conn.query<(RowDataPacket & Pick<QueueRoomDbRow, Read>)[]>(
    'SELECT epoch, seed, opened_at, pool_size, drawn, admitted_through FROM queue_rooms WHERE session_id = ?',
    [sessionId],
  );
  const r = rows[0]!;
  return {
    epoch: Number(r.epoch),
    seed: r.seed,
    openedAt: r.opened_at,
    poolSize: r.pool_size === null ? null : Number(r.pool_size),
    drawn: Number(r.drawn) === 1,
    admittedThrough: Number(r.admitted_through),
  };
}

export async function entriesOf(conn: Conn, sessionId: string): Promise<EntryRow[]> {
  type Read = 'user_id' | 'place' | 'presale' | 'id_hash' | 'joined_at' | 'turn_start';
  const [rows] = await conn.query<(RowDataPacket & Pick<QueueEntryDbRow, Read>)[]>(
    `SELECT user_id, place, presale, id_hash, joined_at, turn_start FROM queue_entries WHERE session_id = ?`,
    [sessionId],
  );
  return rows.map((r) => ({
    userId: String(r.user_id),
    place: r.place === null ? null : Number(r.place),
    presale: Number(r.presale) === 1,
    idHash: r.id_hash,
    joinedAtMs: r.joined_at.getTime(),
    turnStartMs: r.turn_start === null ? null : r.turn_start.getTime(),
  }));
}

/** The sale opened in Redis with this pool and seed; the first opening recorded wins. */
export async function recordOpened(db: Db, sessionId: string, seed: string, poolSize: number, at: Date) {
  await db.query(
    `UPDATE queue_rooms SET seed = COALESCE(seed, ?), opened_at = COALESCE(opened_at, ?),
       pool_size = COALESCE(pool_size, ?) WHERE session_id = ?`,
    [seed, at, poolSize, sessionId],
  );
}

/** The draw's places (pool members in drawn order from place 1), before any of them shows. */
export async function recordDraw(db: Db, sessionId: string, order: string[], at: Date): Promise<void> {
  for (let i = 0; i < order.length; i += 5_000) {
    const rows = order.slice(i, i + 5_000).map((u, j) => [sessionId, u, i + j + 1, 1, at]);
    await db.query(
      `INSERT INTO queue_entries (session_id, user_id, place, presale, joined_at) VALUES ?
         ON DUPLICATE KEY UPDATE place = VALUES(place), presale = 1`,
      [rows],
    );
  }
  await db.query('UPDATE queue_rooms SET drawn = 1 WHERE session_id = ?', [sessionId]);
}

/** Places (from, to] were admitted at `at` (their turns start there); the counter never goes back. */
export async function recordAdmitted(db: Db, sessionId: string, from: number, to: number, at: Date) {
  await db.query(
    'UPDATE queue_rooms SET admitted_through = GREATEST(admitted_through, ?) WHERE session_id = ?',
    [to, sessionId],
  );
  await db.query<ResultSetHeader>(
    `UPDATE queue_entries SET turn_start = ?
       WHERE session_id = ? AND place > ? AND place <= ? AND turn_start IS NULL`,
    [at, sessionId, from, to],
  );
}

/** What MySQL knows that Redis must not have forgotten: the epoch, the last place, admissions. */
export async function roomWatermarks(
  db: Db,
  sessionId: string,
): Promise<{ epoch: number; maxPlace: number; admittedThrough: number } | undefined> {
  type Read = 'epoch' | 'admitted_through';
  const [rows] = await db.query<
    (RowDataPacket & Pick<QueueRoomDbRow, Read> & { max_place: number | null })[]
  >(
    `SELECT epoch, admitted_through,
       (SELECT MAX(place) FROM queue_entries WHERE session_id = ?) AS max_place
     FROM queue_rooms WHERE session_id = ?`,
    [sessionId, sessionId],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    epoch: Number(r.epoch),
    maxPlace: Number(r.max_place ?? 0),
    admittedThrough: Number(r.admitted_through),
  };
}
