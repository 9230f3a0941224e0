import type { RowDataPacket } from 'mysql2/promise';
import type { DegradeEntry, DegradeName } from '@showtix/shared-types';
import type { Conn, Db } from '../db/pool';

type Row = RowDataPacket & {
  name: DegradeName;
  scope_id: string | number;
  value: number;
  reason: string;
  updated_by: string;
  updated_at: Date;
};

export async function listSwitches(db: Db | Conn): Promise<DegradeEntry[]> {
  const [rows] = await db.query<Row[]>(
    'SELECT name, scope_id, value, reason, updated_by, updated_at FROM degrade_switches ORDER BY name, scope_id',
  );
  return rows.map((r) => ({
    name: r.name,
    sessionId: String(r.scope_id) === '0' ? null : String(r.scope_id),
    value: r.value,
    reason: r.reason,
    updatedBy: r.updated_by,
    updatedAt: r.updated_at.toISOString(),
  }));
}

/** The switch's row before the change (for the audit entry), locked. */
export async function findSwitch(
  conn: Conn,
  name: DegradeName,
  scopeId: string,
): Promise<{ value: number; reason: string } | undefined> {
  const [rows] = await conn.query<Row[]>(
    'SELECT value, reason FROM degrade_switches WHERE name = ? AND scope_id = ? FOR UPDATE',
    [name, scopeId],
  );
  return rows[0] ? { value: rows[0].value, reason: rows[0].reason } : undefined;
}

/** value undefined turns the switch off (its row is deleted). */
export async function writeSwitch(
  conn: Conn,
  s: { name: DegradeName; scopeId: string; value?: number; reason: string; by: string; now: Date },
): Promise<void> {
  if (s.value === undefined) {
    await conn.query('DELETE FROM degrade_switches WHERE name = ? AND scope_id = ?', [s.name, s.scopeId]);
    return;
  }
  await conn.query(
    `INSERT INTO degrade_switches (name, scope_id, value, reason, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON DUPLICATE KEY UPDATE value = VALUES(value), reason = VALUES(reason),
       updated_by = VALUES(updated_by), updated_at = VALUES(updated_at)`,
    [s.name, s.scopeId, s.value, s.reason, s.by, s.now],
  );
}

export async function sessionExists(db: Db, sessionId: string): Promise<boolean> {
  const [rows] = await db.query<RowDataPacket[]>('SELECT 1 FROM show_sessions WHERE id = ?', [sessionId]);
  return rows.length > 0;
}
