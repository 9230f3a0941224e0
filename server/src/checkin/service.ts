import {
  checkCode,
  parseCode,
  ticketHash,
  type OfflineBundle,
  type ParsedCode,
} from '@showtix/shared-types/dist/ticket-code';
import type { CheckinAnswer, CheckinSyncAnswer } from '@showtix/shared-types';
import { inTransaction, type Db } from '../db/pool';
import { appError } from '../errors';
import { refundBlockedTickets, ticketRefundBlocks } from '../refunds/repo';
import type { TicketKeys } from '../tickets/keys';
import { revokedBindingsOfSession } from '../tickets/bindings-repo';
import { TICKET_STATUS } from '../tickets/status';
import { recordAudit } from '../audit/repo';
import { sessionCancelled } from '../session-changes/repo';
import type { PathLimiter } from '../risk/limits';
import { checkSecondFactor, type SecondFactor } from './manual';
import { nativeVerify } from './verify';
import { BUNDLE_TTL_MS, bundleToken, inWindow, readBundleToken } from './bundle';
import {
  attendeeOfTicket,
  bundleTickets,
  checkinOf,
  gateCount,
  bindingLiveAt,
  insertCheckin,
  insertConflict,
  lockTicket,
  type CheckinKind,
  sessionOfBundle,
  staffShows,
  ticketByNo,
  type TicketForGate,
} from './repo';

export interface Scan {
  staffUserId: string;
  gate: string;
  device: string | null;
}

const seatLabel = (t: Pick<TicketForGate, 'section' | 'row_label' | 'seat_number' | 'zone_name'>) =>
  t.section ? `${t.section} ${t.row_label}排${t.seat_number}座` : `${t.zone_name ?? ''}`;

/**
 * A gate that does not say its session (the public contract's `{qr, gate}`) admits a ticket only
 * while its session is on: doors open hours before the start, and a long show or a late fan is
 * still let in hours after it. Outside this window the scan is "not today".
 */
export const ENTRY_OPENS_BEFORE_MS = 6 * 3_600_000;
export const ENTRY_CLOSES_AFTER_MS = 8 * 3_600_000;

function inEntryWindow(startsAt: Date, now: Date): boolean {
  const start = new Date(startsAt).getTime();
  return now.getTime() >= start - ENTRY_OPENS_BEFORE_MS && now.getTime() <= start + ENTRY_CLOSES_AFTER_MS;
}

/**
 * Gate check-in for staff assigned to the show: the QR's Ed25519 signature and rotating code
 * are checked, then the ticket is admitted in one transaction under its row lock, so the first
 * scan wins at any gate and a refund cannot slip between the check and the admission.
 */
export class CheckinService {
  constructor(
    private readonly db: Db,
    private readonly keys: TicketKeys,
    private readonly manualLimit: PathLimiter,
  ) {}

  private async assignedShows(staffUserId: string): Promise<Set<string>> {
    const shows = /^\d{1,20}$/.test(staffUserId) ? await staffShows(this.db, staffUserId) : new Set<string>();
    if (shows.size === 0) throw appError('FORBIDDEN', undefined, '仅限检票工作人员使用');
    return shows;
  }

  /**
   * Scans a device-bound code (ticket-code.ts): current step, server-signed binding, the bound
   * device's signature; then this gate's session, and the binding not revoked (re-checked under
   * the ticket's lock in admit).
   */
  async checkin(s: Scan, input: { qr: string; sessionId?: string }, now: Date): Promise<CheckinAnswer> {
    const shows = await this.assignedShows(s.staffUserId);
    const code = parseCode(input.qr);
    if (!code)
      return { result: 'invalid', reason: input.qr.startsWith('STX2.') ? 'outdated code' : 'unreadable' };
    const t = await this.codeTicket(code, now);
    if ('reason' in t) return { result: 'invalid', ...t };
    // A ticket of a show this gate does not check is a red 非本场票 at the gate, not an error sheet.
    if (!shows.has(t.show_id)) return { result: 'invalid', reason: 'other show', ticketId: t.ticket_no };
    if (input.sessionId !== undefined && input.sessionId !== t.session_id)
      return { result: 'invalid', reason: 'other session', ticketId: t.ticket_no };
    if (input.sessionId === undefined && !inEntryWindow(t.starts_at, now))
      return { result: 'invalid', reason: 'not today', ticketId: t.ticket_no };
    return this.admit(t, s, 'online', now, now, { kind: 'qr', bindingId: code.binding.bindingId });
  }

  /**
   * Manual entry: a typed ticket number with a second factor (manual.ts), limited per gate and
   * staff device, every attempt audited, admissions counted as their own kind.
   */
  async manual(
    s: Scan,
    input: { ticketNo: string; sessionId: string } & SecondFactor,
    now: Date,
  ): Promise<CheckinAnswer> {
    const shows = await this.assignedShows(s.staffUserId);
    await this.manualLimit.consume(`${input.sessionId}:${s.gate}`, {
      ip: undefined,
      device: s.device ?? undefined,
    });
    const t = await ticketByNo(this.db, input.ticketNo);
    if (t && !shows.has(t.show_id)) throw appError('FORBIDDEN', undefined, '您未被分配到本场演出检票');
    let answer: CheckinAnswer;
    if (!t) answer = { result: 'invalid', reason: 'unknown ticket' };
    else if (t.session_id !== input.sessionId)
      answer = { result: 'invalid', reason: 'other session', ticketId: t.ticket_no };
    else {
      const f = await checkSecondFactor(this.db, t, input, now);
      answer =
        'reason' in f
          ? { result: 'invalid', reason: f.reason, ticketId: t.ticket_no }
          : { ...(await this.admit(t, s, 'online', now, now, f)), kind: f.kind };
    }
    const factor = 'idLast4' in input ? 'id' : 'spoken_code';
    await recordAudit(
      this.db,
      {
        actor: { adminId: null, username: `user:${s.staffUserId}`, ip: '' },
        action: 'checkin.manual',
        entityType: 'ticket',
        entityId: input.ticketNo,
        after: {
          sessionId: input.sessionId,
          gate: s.gate,
          device: s.device,
          factor,
          result: answer.result,
          reason: answer.reason ?? null,
        },
      },
      now,
    );
    return answer;
  }

  /** The ticket a code is good for at `at`, or why it is not. */
  private async codeTicket(
    code: ParsedCode,
    at: Date,
  ): Promise<TicketForGate | { reason: string; ticketId?: string }> {
    const ticketId = code.binding.ticketNo;
    const problem = checkCode(code, this.keys.publicKey(code.binding.kid), at.getTime(), nativeVerify);
    if (problem) return { reason: problem, ticketId };
    const t = await ticketByNo(this.db, ticketId);
    if (!t || t.session_id !== code.binding.sessionId) return { reason: 'unknown ticket' };
    return t;
  }

  /** Admission itself (online scans and offline ones being synced). */
  private async admit(
    t: TicketForGate,
    s: Scan,
    mode: 'online' | 'offline',
    scannedAt: Date,
    now: Date,
    how: { kind: CheckinKind; bindingId?: string },
  ): Promise<CheckinAnswer> {
    const result = await inTransaction(this.db, async (conn) => {
      if ((await lockTicket(conn, t.id)) !== TICKET_STATUS.VALID) return 'refunded' as const;
      // Refund admissibility (also for a ticket whose status was never moved): no entry while
      // a refund of its order is open or done.
      if (await ticketRefundBlocks(conn, t.id)) return 'refunded' as const;
      // A cancelled session's tickets are all being refunded, also one issued after the cancel.
      if (await sessionCancelled(conn, t.session_id)) return 'refunded' as const;
      // A re-bind takes the same row lock: the old phone's code is refused from its commit on.
      if (how.bindingId && !(await bindingLiveAt(conn, how.bindingId, t.id, scannedAt)))
        return 'revoked' as const;
      const first = await insertCheckin(conn, {
        ticketId: t.id,
        sessionId: t.session_id,
        gate: s.gate,
        staffUserId: s.staffUserId,
        device: s.device,
        mode,
        kind: how.kind,
        scannedAt,
        now,
      });
      return first ? ('admitted' as const) : ('already_used' as const);
    });
    const base = { ticketId: t.ticket_no, seat: seatLabel(t) };
    if (result === 'revoked') return { result: 'invalid', reason: 'binding revoked', ticketId: t.ticket_no };
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
    const session = await sessionOfBundle(this.db, sessionId);
    if (!session) throw appError('NOT_FOUND');
    if (!shows.has(session.showId)) throw appError('FORBIDDEN', undefined, '您未被分配到本场演出检票');
    const rows = await bundleTickets(this.db, sessionId);
    const expiresAt = now.getTime() + BUNDLE_TTL_MS;
    const hashKey = this.keys.mac('offline-bundle-hash', sessionId);
    const bundle: OfflineBundle = {
      v: 3,
      sessionId,
      generatedAt: now.toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
      token: bundleToken(this.keys, { sessionId, issuedAt: now.getTime(), expiresAt }),
      keys: this.keys.publicKeys(),
      hashKey,
      tickets: {},
      revoked: [],
      revokedBindings: await revokedBindingsOfSession(this.db, sessionId),
    };
    const refunding = await refundBlockedTickets(this.db, sessionId);
    // Keyed hashes, not ticket numbers: a lost phone's bundle lists no number to type in or sync.
    // A ticket whose order has an open or done refund is revoked like a voided one.
    for (const r of rows) {
      if (r.status !== TICKET_STATUS.VALID || refunding.has(r.ticket_no)) {
        bundle.revoked.push(ticketHash(hashKey, r.ticket_no));
        continue;
      }
      bundle.tickets[ticketHash(hashKey, r.ticket_no)] = {
        seat: seatLabel(r),
        ...(r.name_masked ? { attendee: { name: r.name_masked, idNumber: r.id_masked! } } : {}),
      };
    }
    return bundle;
  }

  /**
   * Check-ins made offline, sent when the device is back online with the token of the bundle they
   * were checked with. Each must be a ticket of that bundle's session, scanned inside its window;
   * it is admitted if it was the first use; a second use (another gate was first) or a ticket
   * refunded meanwhile is recorded as a conflict for the admin page.
   */
  async sync(
    s: Scan,
    sessionId: string,
    token: string,
    items: { ticketNo: string; scannedAt: Date; code: string }[],
    now: Date,
  ): Promise<CheckinSyncAnswer> {
    const shows = await this.assignedShows(s.staffUserId);
    const w = readBundleToken(this.keys, token);
    if (w?.sessionId !== sessionId)
      throw appError('VALIDATION_FAILED', { field: 'bundle' }, '离线数据包无效或不属于本场次，请重新下载');
    const out: CheckinSyncAnswer['items'] = [];
    for (const it of items) {
      // The code the phone showed is checked again, at the time it was scanned: a sync cannot
      // admit anything a scanner could not have seen (no code from a ticket number alone).
      const code = parseCode(it.code);
      const t =
        code?.binding.ticketNo === it.ticketNo ? await this.codeTicket(code, it.scannedAt) : undefined;
      const refused = (reason: string) => out.push({ ticketNo: it.ticketNo, result: 'invalid', reason });
      if (!code || !t) refused('unreadable');
      else if ('reason' in t) refused(t.reason);
      else if (!shows.has(t.show_id)) refused('unknown ticket');
      else if (t.session_id !== sessionId) refused('other session');
      else if (!inWindow(w, it.scannedAt, now)) refused('outside window');
      else out.push({ ticketNo: it.ticketNo, ...(await this.syncOne(t, s, it.scannedAt, now, code)) });
    }
    return { items: out, gateCount: await gateCount(this.db, sessionId, s.gate) };
  }

  private async syncOne(t: TicketForGate, s: Scan, scannedAt: Date, now: Date, code: ParsedCode) {
    const a = await this.admit(t, s, 'offline', scannedAt, now, {
      kind: 'qr',
      bindingId: code.binding.bindingId,
    });
    if (a.result === 'invalid') return { result: a.result, reason: a.reason };
    // The same scan sent again (its answer was lost): it was admitted, say so.
    const sameScan =
      a.result === 'already_used' &&
      a.gate === s.gate &&
      a.usedAt === scannedAt.toISOString() &&
      a.usedBy === s.staffUserId;
    if (sameScan) return { result: 'admitted' as const };
    if (a.result === 'already_used' || a.result === 'refunded') await this.conflict(t, s, a, scannedAt, now);
    return { result: a.result };
  }

  private async conflict(
    t: TicketForGate,
    s: Scan,
    a: CheckinAnswer,
    scannedAt: Date,
    now: Date,
  ): Promise<void> {
    await insertConflict(this.db, {
      ticketId: t.id,
      sessionId: t.session_id,
      kind: a.result === 'refunded' ? 'refunded' : 'duplicate',
      gate: s.gate,
      staffUserId: s.staffUserId,
      device: s.device,
      scannedAt,
      firstGate: a.gate ?? null,
      firstAt: a.usedAt ? new Date(a.usedAt) : null,
      createdAt: now,
    });
  }
}
