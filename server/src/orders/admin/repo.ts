import type { Db } from '../../db/pool';
import { ORDER_STATUS_NAME } from '../types';
import type { OrderRow } from '../rows';
import type { PaymentRow } from '../../payments/rows';
import type { RefundRow } from '../../refunds/rows';
import type { RefundRecord } from '../../refunds/repo';
import { personFilter, type PersonHasher } from './attendees-repo';
import { camelRow, type Camelized, type Rows } from '../../db/rows';

/** An order as the admin's list and drawer show it: with its buyer, show and session start. */
type AdminOrderListRow = Pick<
  OrderRow,
  | 'id'
  | 'order_no'
  | 'status'
  | 'amount_fen'
  | 'quantity'
  | 'created_at'
  | 'paid_at'
  | 'expire_at'
  | 'cancelled_at'
  | 'cancel_reason'
  | 'contact_phone_masked'
  | 'channel'
  | 'user_id'
  | 'session_id'
> & { nickname: string | null; openid: string | null; title: string; starts_at: Date };

/** A payment of the order (status 1 paid, 2 refunded in part, 3 in full). */
type AdminPaymentRow = Pick<PaymentRow, 'id' | 'transaction_id' | 'amount_fen' | 'refunded_fen'> & {
  status: number;
  success_time: Date | null;
};

/** A ticket of the order with its seat or zone unit and its item's price. */
interface AdminTicketRow {
  ticket_no: string;
  status: number;
  created_at: Date;
  section: string | null;
  row_label: string | null;
  seat_number: string | null;
  zone_name: string | null;
  slot_no: number | null;
  price_fen: number;
}

/** A device binding of one of the order's tickets. */
interface AdminBindingRow {
  ticket_no: string;
  id: string;
  device_key: string;
  device_id: string | null;
  created_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

/** The rows above as the admin's order service sees them (camelCase, the same values). */
export type AdminOrderListing = Camelized<AdminOrderListRow>;
export type AdminPayment = Camelized<AdminPaymentRow>;
export type AdminTicket = Camelized<AdminTicketRow>;
export type AdminBinding = Camelized<AdminBindingRow>;

export interface OrderFilter {
  orderNo?: string;
  buyer?: string;
  phone?: string;
  idNumber?: string;
  status?: string;
  showId?: string;
  sessionId?: string;
  from?: string;
  to?: string;
}

const FROM = `FROM orders o
  LEFT JOIN users u ON u.id = o.user_id
  JOIN show_sessions ss ON ss.id = o.session_id
  JOIN shows s ON s.id = ss.show_id`;

export const SELECT = `SELECT o.id, o.order_no, o.status, o.amount_fen, o.quantity, o.created_at, o.paid_at, o.expire_at,
    o.cancelled_at, o.cancel_reason, o.contact_phone_masked, o.channel, o.user_id, o.session_id, u.nickname, u.openid, s.title, ss.starts_at ${FROM}`;

function where(f: OrderFilter, hasher: PersonHasher): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...p: unknown[]) => (parts.push(sql), params.push(...p));
  if (f.orderNo) add("o.order_no LIKE CONCAT(?, '%')", f.orderNo);
  if (f.buyer) {
    if (/^\d{1,20}$/.test(f.buyer)) add('(o.user_id = ? OR u.openid = ?)', f.buyer, f.buyer);
    else
      add(
        "(u.openid = ? OR u.nickname LIKE CONCAT('%', ?, '%'))",
        f.buyer,
        f.buyer.replace(/[\\%_]/g, '\\$&'),
      );
  }
  const status = f.status
    ? Object.entries(ORDER_STATUS_NAME).find(([, n]) => n === f.status)?.[0]
    : undefined;
  if (status) add('o.status = ?', Number(status));
  if (f.sessionId) add('o.session_id = ?', f.sessionId);
  if (f.showId) add('ss.show_id = ?', f.showId);
  if (f.from) add('o.created_at >= ?', new Date(f.from));
  if (f.to) add('o.created_at < ?', new Date(f.to));
  for (const c of personFilter(f, hasher)) add(c.sql, ...c.params);
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export async function searchOrders(
  db: Db,
  f: OrderFilter,
  offset: number,
  limit: number,
  hasher: PersonHasher,
): Promise<{ rows: AdminOrderListing[]; total: number }> {
  const w = where(f, hasher);
  const [[count]] = await db.query<Rows<{ n: number }>>(`SELECT COUNT(*) AS n ${FROM} ${w.sql}`, w.params);
  const [rows] = await db.query<Rows<AdminOrderListRow>>(
    `${SELECT} ${w.sql} ORDER BY o.id DESC LIMIT ? OFFSET ?`,
    [...w.params, limit, offset],
  );
  return { rows: rows.map((r) => camelRow<AdminOrderListRow>(r)), total: Number(count!.n) };
}

export async function findOrderRow(db: Db, orderNo: string): Promise<AdminOrderListing | undefined> {
  const [rows] = await db.query<Rows<AdminOrderListRow>>(`${SELECT} WHERE o.order_no = ?`, [orderNo]);
  return rows[0] && camelRow<AdminOrderListRow>(rows[0]);
}

export async function tierNames(db: Db, sessionId: string): Promise<Map<string, string>> {
  const [rows] = await db.query<Rows<{ id: string; name: string }>>(
    'SELECT id, name FROM price_tiers WHERE session_id = ?',
    [sessionId],
  );
  return new Map(rows.map((r) => [String(r.id), r.name]));
}

export async function paymentsOf(db: Db, orderId: string): Promise<AdminPayment[]> {
  const [rows] = await db.query<Rows<AdminPaymentRow>>(
    'SELECT * FROM payments WHERE order_id = ? ORDER BY id',
    [orderId],
  );
  return rows.map((r) => camelRow<AdminPaymentRow>(r));
}

export async function ticketsOf(db: Db, orderId: string): Promise<AdminTicket[]> {
  const [rows] = await db.query<Rows<AdminTicketRow>>(
    `SELECT t.ticket_no, t.status, t.created_at, vs.section, vs.row_label, vs.seat_number, vz.name AS zone_name, t.slot_no,
            (SELECT i.price_fen FROM order_items i WHERE i.id = t.order_item_id) AS price_fen
       FROM tickets t LEFT JOIN venue_seats vs ON vs.id = t.seat_id LEFT JOIN venue_zones vz ON vz.id = t.zone_id
      WHERE t.order_id = ? ORDER BY t.id`,
    [orderId],
  );
  return rows.map((r) => camelRow<AdminTicketRow>(r));
}

/** Every device binding of an order's tickets (current and revoked), newest first. */
export async function bindingsOf(db: Db, orderId: string): Promise<AdminBinding[]> {
  const [rows] = await db.query<Rows<AdminBindingRow>>(
    `SELECT t.ticket_no, b.id, b.device_key, b.device_id, b.created_at, b.revoked_at, b.revoked_reason
       FROM ticket_bindings b JOIN tickets t ON t.id = b.ticket_id
      WHERE t.order_id = ? ORDER BY b.id DESC`,
    [orderId],
  );
  return rows.map((r) => camelRow<AdminBindingRow>(r));
}

export async function adminNames(db: Db): Promise<Map<string, string>> {
  const [rows] = await db.query<Rows<{ id: string; username: string }>>(
    'SELECT id, username FROM admin_users',
  );
  return new Map(rows.map((r) => [String(r.id), r.username]));
}

export async function refundsOf(db: Db, orderId: string): Promise<RefundRecord[]> {
  const [rows] = await db.query<Rows<RefundRow>>('SELECT * FROM refunds WHERE order_id = ? ORDER BY id', [
    orderId,
  ]);
  return rows.map((r) => camelRow<RefundRow>(r));
}
