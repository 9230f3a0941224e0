import {
  codeIsCurrent,
  parseQr,
  verifySignature,
  type OfflineBundle,
} from '@showtix/shared-types/dist/ticket-code';
import type { CheckinAnswer, CheckinSyncAnswer } from '@showtix/shared-types';
import type { RowDataPacket } from 'mysql2/promise';
import { inTransaction, type Db } from '../db/pool';
import { appError } from '../http/errors';
import { codeKeyOf, type TicketKeys } from '../tickets/keys';
import { refundBlockedTickets, ticketRefundBlocks } from '../refunds/repo';
import { TICKET_STATUS } from '../tickets/status';
import {
  attendeeOfTicket,
  checkinOf,
  gateCount,
  insertCheckin,
  lockTicket,
  staffShows,
  ticketByNo,
  type TicketForGate,
} from './repo';

export interface Scan {
  staffUserId: string;
  gate: string;
  device: string | null;
}

const seatLabel = (t: TicketForGate) =>
  t.section ? `${t.section} ${t.row_label}排${t.seat_number}座` : `${t.zone_name ?? ''}`;

/**
 * Gate check-in for staff assigned to the show: the QR's Ed25519 signature and rotating code
 * are checked, then the ticket is admitted in one transaction under its row lock, so the first
 * scan wins at any gate and a refund cannot slip between the check and the admission.
 */
export class CheckinService {
  constructor(
    private readonly db: Db,
    private readonly keys: TicketKeys,
  ) {}

  private async assignedShows(staffUserId: string): Promise<Set<string>> {
    const shows = /^\d{1,20}$/.test(staffUserId) ? await staffShows(this.db, staffUserId) : new Set<string>();
    if (shows.size === 0) throw appError('FORBIDDEN', undefined, '仅限检票工作人员使用');
    return shows;
  }

  /** Scans a QR (or, as a fallback, a ticket number read out by the holder). */
  async checkin(
    s: Scan,
    input: { qr?: string; ticketNo?: string; sessionId?: string },
    now: Date,
  ): Promise<CheckinAnswer> {
    const shows = await this.assignedShows(s.staffUserId);
    const qr = input.qr === undefined ? undefined : parseQr(input.qr);
    if (input.qr !== undefined) {
      if (!qr) return { result: 'invalid', reason: 'unreadable' };
      const key = this.keys.publicKey(qr.payload.k);
      if (!key || !verifySignature(qr, key)) return { result: 'invalid', reason: 'signature' };
    }
    const ticketNo = qr ? qr.payload.t : input.ticketNo;
    const t = ticketNo ? await ticketByNo(this.db, ticketNo) : undefined;
    if (!t || (qr && t.session_id !== qr.payload.s)) return { result: 'invalid', reason: 'unknown ticket' };
    if (!shows.has(t.show_id)) throw appError('FORBIDDEN', undefined, '您未被分配到本场演出检票');
    if (qr && !codeIsCurrent(codeKeyOf(t.secret), qr.code, now.getTime()))
      return { result: 'invalid', reason: 'code expired', ticketId: t.ticket_no };
    if (input.sessionId && input.sessionId !== t.session_id)
      return { result: 'invalid', reason: 'other session', ticketId: t.ticket_no };
    return this.admit(t, s, 'online', now, now);
  }

  /** Admission itself (online scans and offline ones being synced). */
  private async admit(
    t: TicketForGate,
    s: Scan,
    mode: 'online' | 'offline',
    scannedAt: Date,
    now: Date,
  ): Promise<CheckinAnswer> {
    const result = await inTransaction(this.db, async (conn) => {
      if ((await lockTicket(conn, t.id)) !== TICKET_STATUS.VALID) return 'refunded' as const;
      // Refund admissibility (also for a ticket whose status was never moved): no entry while
      // a refund of its order is open or done.
      if (await ticketRefundBlocks(conn, t.id)) return 'refunded' as const;
      const first = await insertCheckin(conn, {
        ticketId: t.id,
        sessionId: t.session_id,
        gate: s.gate,
        staffUserId: s.staffUserId,
        device: s.device,
        mode,
        scannedAt,
        now,
      });
      return first ? ('admitted' as const) : ('already_used' as const);
    });
    const base = { ticketId: t.ticket_no, seat: seatLabel(t) };
    if (result === 'refunded') return { result, ...base };
    if (result === 'already_used') {
      const c = (await checkinOf(this.db, t.id))!;
      return {
        result,
        ...base,
        usedAt: c.scanned_at.toISOString(),
        gate: c.gate,
        usedBy: String(c.staff_user_id),
      };
    }
    const attendee = t.real_name ? await attendeeOfTicket(this.db, t.id) : undefined;
    return {
      result,
      ...base,
      ...(attendee ? { attendee: { name: attendee.name_masked, idNumber: attendee.id_masked } } : {}),
      gateCount: await gateCount(this.db, t.session_id, s.gate),
    };
  }

  /** What a staff device needs to check a session's tickets offline, and what it must refuse. */
  async offlineBundle(staffUserId: string, sessionId: string, now: Date): Promise<OfflineBundle> {
    const shows = await this.assignedShows(staffUserId);
    const [[session]] = await this.db.query<RowDataPacket[]>(
      'SELECT show_id, real_name FROM show_sessions WHERE id = ?',
      [sessionId],
    );
    if (!session) throw appError('NOT_FOUND');
    if (!shows.has(String(session.show_id)))
      throw appError('FORBIDDEN', undefined, '您未被分配到本场演出检票');
    const [rows] = await this.db.query<RowDataPacket[]>(
      `SELECT t.ticket_no, t.status, t.secret, vs.section, vs.row_label, vs.seat_number, vz.name AS zone_name,
              oa.name_masked, oa.id_masked
         FROM tickets t
         LEFT JOIN venue_seats vs ON vs.id = t.seat_id LEFT JOIN venue_zones vz ON vz.id = t.zone_id
         LEFT JOIN order_items oi ON oi.id = t.order_item_id
         LEFT JOIN order_attendees oa ON oa.order_id = t.order_id
              AND oa.position = (SELECT COUNT(*) FROM order_items x WHERE x.order_id = t.order_id AND x.id < oi.id)
        WHERE t.session_id = ?`,
      [sessionId],
    );
    const bundle: OfflineBundle = {
      sessionId,
      generatedAt: now.toISOString(),
      keys: this.keys.publicKeys(),
      tickets: {},
      revoked: [],
    };
    const refunding = await refundBlockedTickets(this.db, sessionId);
    for (const r of rows) {
      if (r.status !== TICKET_STATUS.VALID || refunding.has(r.ticket_no)) {
        bundle.revoked.push(r.ticket_no);
        continue;
      }
      bundle.tickets[r.ticket_no] = {
        codeKey: codeKeyOf(r.secret),
        seat: seatLabel(r as TicketForGate),
        ...(r.name_masked ? { attendee: { name: r.name_masked, idNumber: r.id_masked } } : {}),
      };
    }
    return bundle;
  }

  /**
   * Check-ins made offline, sent when the device is back online. Each is admitted if it was the
   * first use; a second use (another gate was first) or a ticket refunded meanwhile is recorded
   * as a conflict for the admin page. gateCount is for the desk's counter: what the gate has
   * admitted so far in the session of the first ticket sent.
   */
  async sync(s: Scan, items: { ticketNo: string; scannedAt: Date }[], now: Date): Promise<CheckinSyncAnswer> {
    const shows = await this.assignedShows(s.staffUserId);
    const out: CheckinSyncAnswer['items'] = [];
    let counted: TicketForGate | undefined;
    const sameScan = (a: CheckinAnswer, at: Date) =>
      a.result === 'already_used' &&
      a.gate === s.gate &&
      a.usedAt === at.toISOString() &&
      a.usedBy === s.staffUserId;
    for (const [i, it] of items.entries()) {
      const t = await ticketByNo(this.db, it.ticketNo);
      if (i === 0) counted = t;
      if (!t || !shows.has(t.show_id)) {
        out.push({ ticketNo: it.ticketNo, result: 'invalid' });
        continue;
      }
      const a = await this.admit(t, s, 'offline', it.scannedAt, now);
      // The same scan sent again (its answer was lost): it was admitted, say so.
      if (sameScan(a, it.scannedAt)) {
        out.push({ ticketNo: it.ticketNo, result: 'admitted' });
        continue;
      }
      if (a.result === 'already_used' || a.result === 'refunded')
        await this.conflict(t, s, a, it.scannedAt, now);
      out.push({ ticketNo: it.ticketNo, result: a.result });
    }
    return {
      items: out,
      ...(counted ? { gateCount: await gateCount(this.db, counted.session_id, s.gate) } : {}),
    };
  }

  private async conflict(
    t: TicketForGate,
    s: Scan,
    a: CheckinAnswer,
    scannedAt: Date,
    now: Date,
  ): Promise<void> {
    await this.db.query(
      `INSERT IGNORE INTO checkin_conflicts (ticket_id, session_id, kind, gate, staff_user_id, device, scanned_at, first_gate, first_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        t.id,
        t.session_id,
        a.result === 'refunded' ? 'refunded' : 'duplicate',
        s.gate,
        s.staffUserId,
        s.device,
        scannedAt,
        a.gate ?? null,
        a.usedAt ? new Date(a.usedAt) : null,
        now,
      ],
    );
  }
}
