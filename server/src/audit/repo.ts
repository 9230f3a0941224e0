import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { AuditEntry } from '@showtix/shared-types';
import type { Conn, Db } from '../db/pool';
import type { Actor } from './actor';

/** One row of admin_audit_log. */
interface AuditRow extends RowDataPacket {
  id: string;
  admin_id: string | null;
  actor: string;
  action: string;
  entity_type: string;
  entity_id: string;
  before_json: string | null;
  after_json: string | null;
  ip: string;
  created_at: Date;
}

type CountRow = RowDataPacket & { n: number };

export interface AuditInput {
  actor: Actor | { adminId: null; username: string; ip: string };
  action: string;
  entityType: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

export async function recordAudit(conn: Conn | Db, e: AuditInput, now: Date): Promise<string> {
  const [res] = await conn.query<ResultSetHeader>(
    `INSERT INTO admin_audit_log (admin_id, actor, action, entity_type, entity_id, before_json, after_json, ip, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      e.actor.adminId,
      e.actor.username,
      e.action,
      e.entityType,
      e.entityId,
      json(e.before),
      json(e.after),
      e.actor.ip,
      now,
    ],
  );
  return String(res.insertId);
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function auditView(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    adminId: r.admin_id,
    actor: r.actor,
    action: r.action,
    entityType: r.entity_type,
    entityId: r.entity_id,
    before: parse(r.before_json),
    after: parse(r.after_json),
    ip: r.ip,
    createdAt: r.created_at.toISOString(),
  };
}

export interface AuditFilter {
  entityType?: string;
  entityId?: string;
  actor?: string;
  action?: string;
}

const FILTER_COLUMNS: Record<keyof AuditFilter, string> = {
  entityType: 'entity_type',
  entityId: 'entity_id',
  actor: 'actor',
  action: 'action',
};

function where(f: AuditFilter): { sql: string; params: unknown[] } {
  const given = (Object.keys(FILTER_COLUMNS) as (keyof AuditFilter)[]).filter((k) => f[k]);
  return {
    sql: given.length ? `WHERE ${given.map((k) => `${FILTER_COLUMNS[k]} = ?`).join(' AND ')}` : '',
    params: given.map((k) => f[k]),
  };
}

export async function listAudit(
  db: Db,
  f: AuditFilter,
  offset: number,
  limit: number,
): Promise<{ rows: AuditEntry[]; total: number }> {
  const w = where(f);
  const [[count]] = await db.query<CountRow[]>(
    `SELECT COUNT(*) AS n FROM admin_audit_log ${w.sql}`,
    w.params,
  );
  const [rows] = await db.query<AuditRow[]>(
    `SELECT * FROM admin_audit_log ${w.sql} ORDER BY id DESC LIMIT ? OFFSET ?`,
    [...w.params, limit, offset],
  );
  return { rows: rows.map(auditView), total: Number(count!.n) };
}

/** Entries about one entity, oldest first (an order's trail in its detail view). */
export async function auditOf(db: Db, entityType: string, entityId: string): Promise<AuditEntry[]> {
  const [rows] = await db.query<AuditRow[]>(
    'SELECT * FROM admin_audit_log WHERE entity_type = ? AND entity_id = ? ORDER BY id',
    [entityType, entityId],
  );
  return rows.map(auditView);
}
