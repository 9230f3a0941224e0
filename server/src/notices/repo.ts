import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { NoticeStatus } from '@showtix/shared-types';
import type { Conn, Db } from '../db/pool';
import { ORDER_STATUS } from '../lifecycle/statuses';

/** One notice_consents row (the columns read). */
interface ConsentRow extends RowDataPacket {
  template_id: string;
  remaining: number;
}

/** One notices row (the columns read). */
interface NoticeStatusRow extends RowDataPacket {
  status: NoticeStatus;
  template_id: string | null;
}

/** The fan (users) and the show and start (shows, show_sessions) a notice is about. */
interface RecipientRow extends RowDataPacket {
  openid: string;
  title: string;
  starts_at: Date;
  /** The fan's sends left of the notice's template (null: never consented). */
  consent_left: number | null;
}

/** Notices grouped by kind, status and error code. */
interface NoticeProblemRow extends RowDataPacket {
  kind: string | null;
  status: NoticeStatus;
  errcode: number | null;
  errmsg: string | null;
  /** COUNT(*): a string (BIGINT), read through Number(). */
  n: string | number;
  last_at: Date | null;
}

/** A ticketed order due for its day-before reminder (the orders columns read). */
interface DueOrderRow extends RowDataPacket {
  id: string;
  user_id: string;
}
type Q = Db | Conn;

// --- consent -----------------------------------------------------------------------------

/** Records a requestSubscribeMessage answer once: false when this request id was seen already. */
export async function claimConsentRequest(conn: Conn, userId: string, requestId: string, now: Date) {
  const [r] = await conn.query<ResultSetHeader>(
    'INSERT IGNORE INTO notice_consent_requests (user_id, request_id, created_at) VALUES (?, ?, ?)',
    [userId, requestId, now],
  );
  return r.affectedRows === 1;
}

/** One accept = one send more. */
export async function addConsent(conn: Conn, userId: string, templateId: string, now: Date) {
  await conn.query(
    `INSERT INTO notice_consents (user_id, template_id, remaining, updated_at) VALUES (?, ?, 1, ?)
       ON DUPLICATE KEY UPDATE remaining = remaining + 1, updated_at = VALUES(updated_at)`,
    [userId, templateId, now],
  );
}

export async function consentsOf(db: Q, userId: string): Promise<Map<string, number>> {
  const [rows] = await db.query<ConsentRow[]>(
    'SELECT template_id, remaining FROM notice_consents WHERE user_id = ?',
    [userId],
  );
  return new Map(rows.map((r) => [String(r.template_id), Number(r.remaining)]));
}

/** Takes one send of the fan's consent, atomically; false when none is left. */
export async function takeConsent(conn: Conn, userId: string, templateId: string, now: Date) {
  const [r] = await conn.query<ResultSetHeader>(
    `UPDATE notice_consents SET remaining = remaining - 1, updated_at = ?
      WHERE user_id = ? AND template_id = ? AND remaining > 0`,
    [now, userId, templateId],
  );
  return r.affectedRows === 1;
}

/** Gives a taken send back (WeChat did not deliver for a reason of ours, not the fan's). */
export async function returnConsent(conn: Conn, userId: string, templateId: string, now: Date) {
  await addConsent(conn, userId, templateId, now);
}

/** WeChat says the fan has no consent left (43101): whatever we counted is spent. */
export async function spendAllConsent(conn: Conn, userId: string, templateId: string, now: Date) {
  await conn.query(
    'UPDATE notice_consents SET remaining = 0, updated_at = ? WHERE user_id = ? AND template_id = ?',
    [now, userId, templateId],
  );
}

// --- notices (one row per outbox message) ------------------------------------------------

export interface NoticeRow {
  status: NoticeStatus;
  templateId: string | null;
}

export async function noticeByKey(db: Q, messageKey: string, lock = false): Promise<NoticeRow | null> {
  const [rows] = await db.query<NoticeStatusRow[]>(
    `SELECT status, template_id FROM notices WHERE message_key = ?${lock ? ' FOR UPDATE' : ''}`,
    [messageKey],
  );
  const r = rows[0];
  return r ? { status: r.status, templateId: r.template_id } : null;
}

/** A notice's row as first inserted. */
export interface NewNotice {
  messageKey: string;
  userId: string;
  /** null: a notice about a show, not an order (sale_open). */
  orderId: string | null;
  template: string;
  kind: string;
  templateId: string;
  status: NoticeStatus;
  errmsg?: string;
}

/** The columns a notice's row is first inserted with (noticeValues: their values, in order). */
const NOTICE_INSERT =
  'INTO notices (message_key, user_id, order_id, template, kind, template_id, status, errmsg, sent_at, updated_at)';

const noticeValues = (n: NewNotice, now: Date) => [
  n.messageKey,
  n.userId,
  n.orderId,
  n.template,
  n.kind,
  n.templateId,
  n.status,
  n.errmsg ?? null,
  now,
  now,
];

/** Inserts the notice's row in its first state; false when the message has a row already. */
export async function insertNotice(db: Q, n: NewNotice, now: Date): Promise<boolean> {
  const [r] = await db.query<ResultSetHeader>(`INSERT IGNORE ${NOTICE_INSERT} VALUES ?`, [
    [noticeValues(n, now)],
  ]);
  return r.affectedRows === 1;
}

/**
 * Notices' rows in their first state, in one statement. Not IGNORE: a row there already (a
 * redelivery among them) refuses the whole statement, and the caller inserts one by one to learn
 * which (first-step.ts).
 */
export async function insertNotices(db: Q, rows: { n: NewNotice; now: Date }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(`INSERT ${NOTICE_INSERT} VALUES ?`, [rows.map(({ n, now }) => noticeValues(n, now))]);
}

/** The outcome of a send (or of an attempt that will be retried: status stays 'sending'). */
export async function recordOutcome(
  db: Q,
  messageKey: string,
  o: { status: NoticeStatus; errcode: number | null; errmsg: string | null },
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE notices SET status = ?, errcode = ?, errmsg = ?, attempts = attempts + 1, updated_at = ?
      WHERE message_key = ?`,
    [o.status, o.errcode, o.errmsg?.slice(0, 255) ?? null, now, messageKey],
  );
}

/** The fan a notice goes to, and the show and start it is about (a row of the queries below). */
const recipient = (r: RecipientRow) => ({
  openid: String(r.openid),
  title: String(r.title),
  startsAt: r.starts_at,
  consentLeft: Number(r.consent_left ?? 0),
});

/**
 * The fan's sends left of a template, read with the recipient: a notice to a fan with none is
 * recorded without the consent's transaction (consumer.ts, claim). Only a hint: a send is still
 * taken only by takeConsent, atomically.
 */
const CONSENT_LEFT =
  '(SELECT c.remaining FROM notice_consents c WHERE c.user_id = u.id AND c.template_id = ?) consent_left';

/** Who a sale_open notice goes to: the fan, the show, and the session that went on sale. */
export async function saleRecipientOf(db: Q, userId: string, sessionId: string, templateId: string) {
  const [rows] = await db.query<(RecipientRow & { show_id: string })[]>(
    `SELECT u.openid, sh.id show_id, sh.title, ss.starts_at, ${CONSENT_LEFT}
       FROM users u JOIN show_sessions ss ON ss.id = ? JOIN shows sh ON sh.id = ss.show_id WHERE u.id = ?`,
    [templateId, sessionId, userId],
  );
  const r = rows[0];
  return r ? { ...recipient(r), showId: String(r.show_id) } : null;
}

/** Who a notice goes to and what it is about. */
export async function recipientOf(db: Q, userId: string, orderId: string, templateId: string) {
  const [rows] = await db.query<(RecipientRow & { order_no: string })[]>(
    `SELECT u.openid, o.order_no, sh.title, ss.starts_at, ${CONSENT_LEFT}
       FROM users u JOIN orders o ON o.id = ? JOIN show_sessions ss ON ss.id = o.session_id
       JOIN shows sh ON sh.id = ss.show_id WHERE u.id = ?`,
    [templateId, orderId, userId],
  );
  const r = rows[0];
  return r ? { ...recipient(r), orderNo: String(r.order_no) } : null;
}

/**
 * recipientOf for many notices in one query: per wanted notice, in order, its recipient or null.
 * Each keeps its own fan, order and template (a notice's fan is not always the order's buyer).
 */
export async function recipientsOf(db: Q, wanted: { userId: string; orderId: string; templateId: string }[]) {
  if (wanted.length === 0) return [];
  const [rows] = await db.query<(RecipientRow & { k: number; order_no: string })[]>(
    `SELECT q.k, u.openid, o.order_no, sh.title, ss.starts_at,
            (SELECT c.remaining FROM notice_consents c WHERE c.user_id = u.id AND c.template_id = q.t) consent_left
       FROM (${wanted.map(() => 'SELECT ? k, CAST(? AS UNSIGNED) uid, CAST(? AS UNSIGNED) oid, ? t').join(' UNION ALL ')}) q
       JOIN users u ON u.id = q.uid JOIN orders o ON o.id = q.oid
       JOIN show_sessions ss ON ss.id = o.session_id JOIN shows sh ON sh.id = ss.show_id`,
    wanted.flatMap((w, k) => [k, w.userId, w.orderId, w.templateId]),
  );
  const found = new Map(rows.map((r) => [Number(r.k), { ...recipient(r), orderNo: String(r.order_no) }]));
  return wanted.map((_, k) => found.get(k) ?? null);
}

/**
 * Notices that did not reach the fan, grouped for the ops page: final states, and sends that
 * failed at least once and wait for a retry (or sit in a dead-letter queue).
 */
export async function noticeProblems(db: Db) {
  const [rows] = await db.query<NoticeProblemRow[]>(
    `SELECT kind, status, errcode, MAX(errmsg) errmsg, COUNT(*) n, MAX(updated_at) last_at FROM notices
      WHERE status IN ('no_consent', 'refused', 'failed') OR (status = 'sending' AND attempts > 0)
      GROUP BY kind, status, errcode ORDER BY n DESC LIMIT 100`,
  );
  return rows.map((r) => ({
    kind: String(r.kind ?? 'unknown'),
    status: r.status,
    errcode: r.errcode === null ? null : Number(r.errcode),
    errmsg: r.errmsg === null ? null : String(r.errmsg),
    count: Number(r.n),
    lastAt: r.last_at?.toISOString() ?? '',
  }));
}

// --- the day-before reminder -------------------------------------------------------------

/** Ticketed orders of sessions starting in (from, to] that have had no reminder yet. */
export async function dueReminders(db: Db, from: Date, to: Date, limit: number) {
  const [rows] = await db.query<DueOrderRow[]>(
    `SELECT o.id, o.user_id FROM orders o JOIN show_sessions ss ON ss.id = o.session_id
       LEFT JOIN notice_reminders nr ON nr.order_id = o.id
      WHERE ss.starts_at > ? AND ss.starts_at <= ? AND o.status = ? AND nr.order_id IS NULL
      ORDER BY ss.starts_at, o.id LIMIT ?`,
    [from, to, ORDER_STATUS.TICKETED, limit],
  );
  return rows.map((r) => ({ orderId: String(r.id), userId: String(r.user_id) }));
}

/** Marks the order's reminder as enqueued; false when it was already (another run, another instance). */
export async function claimReminder(conn: Conn, orderId: string, now: Date): Promise<boolean> {
  const [r] = await conn.query<ResultSetHeader>(
    'INSERT IGNORE INTO notice_reminders (order_id, created_at) VALUES (?, ?)',
    [orderId, now],
  );
  return r.affectedRows === 1;
}
