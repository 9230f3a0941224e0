import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Conn, Db } from '../../db/pool';
import type { BlockKind } from '../repo';

/** One row of the blocklist table. */
interface BlocklistRow extends RowDataPacket {
  id: string;
  kind: BlockKind;
  value: string;
  reason: string;
  created_by: string;
  created_at: Date;
}

/** One row of the risk_flags table. */
interface RiskFlagRow extends RowDataPacket {
  id: string;
  kind: 'device' | 'ip';
  subject: string;
  accounts: number;
  first_seen: Date;
  last_seen: Date;
}

export interface BlockEntryRecord {
  id: string;
  kind: BlockKind;
  /** What is blocked: a user id, a device, an address, or an ID number's keyed hash. */
  value: string;
  reason: string;
  createdBy: string;
  createdAt: Date;
}

export interface RiskFlagRecord {
  id: string;
  kind: 'device' | 'ip';
  subject: string;
  accounts: number;
  firstSeen: Date;
  lastSeen: Date;
}

function entryOf(r: BlocklistRow): BlockEntryRecord {
  return {
    id: String(r.id),
    kind: r.kind,
    value: String(r.value),
    reason: r.reason,
    createdBy: r.created_by,
    createdAt: r.created_at,
  };
}

/** The newest thousand entries, newest first. */
export async function latestBlocks(db: Db): Promise<BlockEntryRecord[]> {
  const [rows] = await db.query<BlocklistRow[]>('SELECT * FROM blocklist ORDER BY id DESC LIMIT 1000');
  return rows.map(entryOf);
}

/** Adds an entry; answers its id (a duplicate kind and value fails with ER_DUP_ENTRY). */
export async function insertBlock(
  c: Conn,
  e: { kind: BlockKind; value: string; reason: string; createdBy: string; createdAt: Date },
): Promise<string> {
  const [res] = await c.query<ResultSetHeader>(
    'INSERT INTO blocklist (kind, value, reason, created_by, created_at) VALUES (?, ?, ?, ?, ?)',
    [e.kind, e.value, e.reason, e.createdBy, e.createdAt],
  );
  return String(res.insertId);
}

/** One entry; lock=true takes its row lock (inside a transaction). */
export async function findBlock(
  c: Db | Conn,
  id: string,
  lock = false,
): Promise<BlockEntryRecord | undefined> {
  const [[row]] = await c.query<BlocklistRow[]>(
    lock ? 'SELECT * FROM blocklist WHERE id = ? FOR UPDATE' : 'SELECT * FROM blocklist WHERE id = ?',
    [id],
  );
  return row && entryOf(row);
}

export async function deleteBlock(c: Conn, id: string): Promise<void> {
  await c.query('DELETE FROM blocklist WHERE id = ?', [id]);
}

/** The 500 flags seen last, latest first. */
export async function latestRiskFlags(db: Db): Promise<RiskFlagRecord[]> {
  const [rows] = await db.query<RiskFlagRow[]>('SELECT * FROM risk_flags ORDER BY last_seen DESC LIMIT 500');
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind,
    subject: r.subject,
    accounts: Number(r.accounts),
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
  }));
}
