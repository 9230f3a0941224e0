/**
 * The INSERTs that write new orders and their claims, built as SQL text: the group commit
 * (orders/writer.ts) runs them in its batches, the exchanges and late payments reuse them.
 */
import type { RowDataPacket } from 'mysql2/promise';
import type { NewOrder } from './types';
import type { OrderRow } from './rows';
import { ORDER_STATUS } from './types';
import { compareIds as cmp, formatSql } from '../db/sql';
import { inRoundTripTransaction } from '../db/group-commit';
import type { Conn, Db } from '../db/pool';
import { SEALED_COLUMNS, sealedValues } from '../attendees/repo';

export type InsertStep =
  | 'orders'
  | 'items'
  | 'attendees'
  | 'seat_claims'
  | 'zone_claims'
  | 'attendee_claims'
  | 'admission'
  | 'quota'
  | 'show_quota';

/**
 * The INSERTs that write a set of new orders, one multi-row statement per table. Rows are sorted
 * by key so concurrent batches take row locks in the same order and do not deadlock.
 */
export function insertStatements(orders: NewOrder[]): { step: InsertStep; sql: string }[] {
  const byId = [...orders].sort((a, b) => cmp(a.id, b.id));
  const out: { step: InsertStep; sql: string }[] = [];
  out.push({
    step: 'orders',
    sql: formatSql(
      `INSERT INTO orders (id, order_no, user_id, session_id, status, amount_fen, quantity,
         idempotency_key, request_hash, expire_at, created_at, admission_jti,
         contact_phone_enc, contact_phone_masked, contact_phone_hash) VALUES ?`,
      [
        byId.map((o) => [
          o.id,
          o.orderNo,
          o.userId,
          o.sessionId,
          ORDER_STATUS.PENDING,
          o.amountFen,
          o.quantity,
          o.idempotencyKey,
          o.requestHash,
          o.expireAt,
          o.createdAt,
          o.admissionJti,
          o.contactPhone?.enc ?? null,
          o.contactPhone?.masked ?? null,
          o.contactPhone?.hash ?? null,
        ]),
      ],
    ),
  });
  const items = byId.flatMap((o) =>
    o.items.map((i) => [
      o.id,
      o.sessionId,
      i.seatId ?? null,
      i.zoneId ?? null,
      i.slotNo ?? null,
      i.tierId,
      i.priceFen,
    ]),
  );
  out.push({
    step: 'items',
    sql: formatSql(
      'INSERT INTO order_items (order_id, session_id, seat_id, zone_id, slot_no, tier_id, price_fen) VALUES ?',
      [items],
    ),
  });
  const attendees = byId.flatMap((o) => o.attendees.map((a, i) => [o.id, i, ...sealedValues(a)]));
  if (attendees.length) {
    out.push({
      step: 'attendees',
      sql: formatSql(`INSERT INTO order_attendees (order_id, position, ${SEALED_COLUMNS}) VALUES ?`, [
        attendees,
      ]),
    });
  }
  // The admission token's use, recorded with the order: a second use is refused here even when
  // Redis lost its marker, and a rebuild restores the markers from these rows.
  const admissions = byId
    .filter((o) => o.admissionJti)
    .map((o) => [o.admissionJti, o.sessionId, o.id, o.admissionUntil])
    .sort((a, b) => cmp(String(a[0]), String(b[0])));
  if (admissions.length) {
    out.push({
      step: 'admission',
      sql: formatSql('INSERT INTO admission_uses (jti, session_id, order_id, expires_at) VALUES ?', [
        admissions,
      ]),
    });
  }
  out.push(...claimStatements(byId));
  return out;
}

/**
 * Upserts per-user counters (user_session_quota, user_show_quota) sorted by (user, scope)
 * so concurrent batches take the row locks in one order and cannot deadlock on each other.
 */
function quotaUpsert(
  step: InsertStep,
  table: string,
  scopeColumn: string,
  rows: (string | number | null)[][],
): { step: InsertStep; sql: string } {
  rows.sort((a, b) => cmp(String(a[0]), String(b[0])) || cmp(String(a[1]), String(b[1])));
  return {
    step,
    sql: formatSql(
      `INSERT INTO ${table} (user_id, ${scopeColumn}, used, limit_max) VALUES ?
         ON DUPLICATE KEY UPDATE used = used + VALUES(used), limit_max = VALUES(limit_max)`,
      [rows],
    ),
  };
}

/** Orders' claims on seats and units, and their users' quota: the rows MySQL refuses twice. */
export function claimStatements(
  orders: (Pick<
    NewOrder,
    'id' | 'sessionId' | 'userId' | 'quantity' | 'purchaseLimit' | 'items' | 'showId' | 'showLimit'
  > & {
    attendees: { idHash: string }[];
  })[],
): { step: InsertStep; sql: string }[] {
  const out: { step: InsertStep; sql: string }[] = [];
  const seats = orders
    .flatMap((o) => o.items.filter((i) => i.seatId).map((i) => [o.sessionId, i.seatId!, o.id]))
    .sort((a, b) => cmp(a[0]!, b[0]!) || cmp(a[1]!, b[1]!));
  if (seats.length) {
    out.push({
      step: 'seat_claims',
      sql: formatSql('INSERT INTO seat_claims (session_id, seat_id, order_id) VALUES ?', [seats]),
    });
  }
  const slots = orders
    .flatMap((o) =>
      o.items
        .filter((i) => i.zoneId)
        .map((i): [string, string, number, string] => [o.sessionId, i.zoneId!, i.slotNo!, o.id]),
    )
    .sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]) || a[2] - b[2]);
  if (slots.length) {
    out.push({
      step: 'zone_claims',
      sql: formatSql('INSERT INTO zone_claims (session_id, zone_id, slot_no, order_id) VALUES ?', [slots]),
    });
  }
  const ids = orders
    .flatMap((o) => o.attendees.map((a) => [o.sessionId, a.idHash, o.id]))
    .sort((a, b) => cmp(a[0]!, b[0]!) || (a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
  if (ids.length) {
    out.push({
      step: 'attendee_claims',
      sql: formatSql('INSERT INTO attendee_claims (session_id, id_hash, order_id) VALUES ?', [ids]),
    });
  }
  out.push(
    quotaUpsert(
      'quota',
      'user_session_quota',
      'session_id',
      orders.map((o) => [o.userId, o.sessionId, o.quantity, o.purchaseLimit]),
    ),
  );
  const showQuota = orders
    .filter((o) => o.showLimit !== null)
    .map((o) => [o.userId, o.showId, o.quantity, o.showLimit]);
  if (showQuota.length) out.push(quotaUpsert('show_quota', 'user_show_quota', 'show_id', showQuota));
  return out;
}

/** Runs one statement built here (its values are already inlined by formatSql). */
export async function runStatement(conn: Conn, s: { sql: string }): Promise<void> {
  await conn.query(s.sql);
}

/**
 * Writes a batch of new orders as one transaction in one round trip: the INSERTs and COMMIT in a
 * single multi-statement query (orders/writer.ts: per-statement overhead is what limits MySQL).
 */
export async function insertInOneRoundTrip(pool: Db, orders: NewOrder[]): Promise<void> {
  const sql = ['START TRANSACTION', ...insertStatements(orders).map((s) => s.sql), 'COMMIT'].join(';\n');
  await inRoundTripTransaction(pool, (conn) => conn.query(sql));
}

/** The identifying columns of a stored order, to tell whether a taken id is this very order. */
export interface StoredOrderIdentity {
  orderNo: string;
  userId: string;
  sessionId: string;
  amountFen: number;
  quantity: number;
  idempotencyKey: string | null;
  requestHash: string | null;
  createdAt: Date;
}

export async function storedOrderIdentity(conn: Conn, id: string): Promise<StoredOrderIdentity | undefined> {
  const [rows] = await conn.query<
    (RowDataPacket &
      Pick<
        OrderRow,
        | 'order_no'
        | 'user_id'
        | 'session_id'
        | 'amount_fen'
        | 'quantity'
        | 'idempotency_key'
        | 'request_hash'
        | 'created_at'
      >)[]
  >(
    `SELECT order_no, user_id, session_id, amount_fen, quantity, idempotency_key, request_hash, created_at
       FROM orders WHERE id = ?`,
    [id],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    orderNo: r.order_no,
    userId: String(r.user_id),
    sessionId: String(r.session_id),
    amountFen: Number(r.amount_fen),
    quantity: Number(r.quantity),
    idempotencyKey: r.idempotency_key,
    requestHash: r.request_hash,
    createdAt: r.created_at,
  };
}
