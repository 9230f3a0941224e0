import { randomBytes } from 'node:crypto';
import type {
  AdminTransferView,
  TransferAccepted,
  TransferAcceptInput,
  TransferOffer,
  TransferPreview,
  TransferSettings,
} from '@showtix/shared-types';
import { recordAudit } from '../audit/repo';
import type { IdentityVault } from '../attendees/crypto';
import { SESSION_STATUS } from '../catalog/types';
import { ER_DUP_ENTRY, inTransaction, sqlErrno, type Conn, type Db } from '../db/pool';
import { appError } from '../errors';
import { TICKET_STATUS } from '../lifecycle/statuses';
import { move, TICKET_LIFECYCLE, tryMove } from '../lifecycle/transitions';
import { orders } from '../orders/repo';
import { ticketRefundBlocks } from '../refunds/repo';
import { liveBinding, revokeBinding } from '../tickets/bindings-repo';
import type { TicketKeys } from '../tickets/keys';
import { newTicketNo } from '../tickets/service';
import type { Logger } from 'pino';
import type { InventoryService } from '../inventory/service';
import * as repo from './repo';
import { previewOf, transfersOfOrder } from './views-repo';

export interface TransferDeps {
  db: Db;
  /** The Redis gate's copy of the real-name claims (after the MySQL commit; MySQL is the record). */
  inventory?: Pick<InventoryService, 'moveAttendee'>;
  log?: Pick<Logger, 'warn'>;
  /** The ticket keys' server-only MAC derives the one-time codes and their lookup hashes. */
  keys: TicketKeys;
  vault: IdentityVault;
}

/** Who did it, for the audit log (a fan, or an operator for the settings). */
export interface TransferActor {
  adminId: string | null;
  username: string;
  ip: string;
}

/**
 * Ticket transfers (转赠). A holder offers one VALID ticket: it becomes TRANSFERRING (no entry,
 * no refund) and a one-time code is made. A receiver accepts it in one transaction: the old
 * ticket is TRANSFERRED and its device binding revoked, a new ticket (new number, new secret) on
 * the same order item and unit is theirs, and on a real-name session the item's attendee and the
 * session's one-ID-one-ticket claim move to the receiver's ID (refused if that ID holds a ticket
 * of the session). No money moves: the payment stays the giver's (see docs/api.md, 转赠).
 * Lock order everywhere: the ticket row, then the transfer row.
 */
export class TransferService {
  constructor(private readonly d: TransferDeps) {}

  /** The code of an offer: derived, never stored (the giver can be shown it again). */
  private codeOf(t: { ticket_id: string; nonce: string }): string {
    return this.d.keys.mac('transfer-code', `${t.ticket_id}:${t.nonce}`);
  }

  private hashOf(code: string): string {
    return this.d.keys.mac('transfer-code-hash', code);
  }

  private offerView(t: repo.TransferRow, ticketNo: string): TransferOffer {
    return {
      transferId: String(t.id),
      ticketId: ticketNo,
      state: t.state,
      code: this.codeOf(t),
      expiresAt: t.expires_at.toISOString(),
    };
  }

  /** Offers the caller's ticket. Asked again while the offer is open, it answers the same offer. */
  async offer(userId: string, ticketNo: string, now: Date): Promise<TransferOffer> {
    return inTransaction(this.d.db, async (conn) => {
      const t = await repo.lockTicketByNo(conn, ticketNo);
      if (!t || String(t.user_id) !== userId) throw appError('NOT_FOUND', undefined, '门票不存在');
      const open = await repo.openTransferOfTicket(conn, t.id);
      if (open && t.status === TICKET_STATUS.TRANSFERRING) return this.offerView(open, t.ticket_no);
      // An offer whose ticket left TRANSFERRING (a session cancel held it, its refund was closed
      // since): it is over; a new offer may be made if the ticket qualifies.
      if (open) await repo.closeTransfer(conn, open.id, 'expired', now);
      const ctx = await repo.sessionContext(conn, t.session_id);
      const cutoff = this.checkRules(ctx, now);
      await this.checkTicket(conn, t);
      if (ctx.settings!.onceOnly && (await repo.handOversOfItem(conn, t.order_item_id)) > 0)
        throw appError('TRANSFER_ONCE');
      await move(conn, 'tickets', t.id, TICKET_LIFECYCLE.offerTransfer);
      const nonce = randomBytes(16).toString('base64url');
      const code = this.codeOf({ ticket_id: t.id, nonce });
      const id = await repo.insertTransfer(conn, {
        ticket: t,
        nonce,
        codeHash: this.hashOf(code),
        expiresAt: cutoff,
        now,
      });
      return this.offerView((await repo.lockTransferById(conn, id))!, t.ticket_no);
    });
  }

  /** The show's rules at `now`; returns the cutoff (when offers close). */
  private checkRules(ctx: repo.SessionContext, now: Date): Date {
    if (!ctx.settings?.enabled) throw appError('TRANSFER_DISABLED');
    const cutoff = new Date(ctx.starts_at.getTime() - ctx.settings.cutoffMinutes * 60_000);
    if (ctx.session_status === SESSION_STATUS.CANCELLED || now.getTime() >= cutoff.getTime())
      throw appError('TRANSFER_CLOSED', { cutoff: cutoff.toISOString() });
    return cutoff;
  }

  /** Only a VALID ticket, never admitted, with no refund of its item open or done. */
  private async checkTicket(conn: Conn, t: repo.TicketRow): Promise<void> {
    if (t.status !== TICKET_STATUS.VALID) throw appError('TICKET_NOT_TRANSFERABLE');
    if (await repo.checkedIn(conn, t.id))
      throw appError('TICKET_NOT_TRANSFERABLE', undefined, '门票已检票入场，不能转赠');
    if (await ticketRefundBlocks(conn, t.id)) throw appError('TICKET_NOT_TRANSFERABLE');
  }

  /** The giver takes the offer back: the ticket is VALID again. No open offer: nothing to do. */
  async cancel(
    userId: string,
    ticketNo: string,
    now: Date,
  ): Promise<{ ticketId: string; cancelled: boolean }> {
    return inTransaction(this.d.db, async (conn) => {
      const t = await repo.lockTicketByNo(conn, ticketNo);
      if (!t || String(t.user_id) !== userId) throw appError('NOT_FOUND', undefined, '门票不存在');
      const open = await repo.openTransferOfTicket(conn, t.id);
      if (!open) return { ticketId: ticketNo, cancelled: false };
      await repo.closeTransfer(conn, open.id, 'cancelled', now);
      // A session cancel may have held it for its refund meanwhile: then it stays REFUNDING.
      await tryMove(conn, 'tickets', t.id, TICKET_LIFECYCLE.withdrawTransfer);
      return { ticketId: ticketNo, cancelled: true };
    });
  }

  /** What the receiver sees before accepting (any logged-in fan holding the code). */
  async preview(userId: string, code: string): Promise<TransferPreview> {
    const t = await this.findByCode(code);
    const r = await previewOf(this.d.db, t.ticket_id);
    return {
      state: t.state,
      showTitle: r.title,
      venueName: r.venue_name,
      startsAt: r.starts_at.toISOString(),
      ...(r.section ? { seat: { section: r.section, row: r.row_label!, number: r.seat_number! } } : {}),
      ...(r.zone_name ? { zoneName: r.zone_name } : {}),
      priceFen: Number(r.price_fen),
      realName: r.real_name === 1,
      expiresAt: t.expires_at.toISOString(),
      mine: String(t.giver_user_id) === userId,
    };
  }

  private async findByCode(code: string): Promise<repo.TransferRow> {
    const t = await repo.transferByHash(this.d.db, this.hashOf(code));
    if (!t) throw appError('TRANSFER_CODE_INVALID');
    return t;
  }

  /**
   * Accepts an offer. Idempotent: the receiver asking again gets the ticket already made; anyone
   * else finds the code used. Of two receivers racing, the transfer row's lock lets one in; the
   * other then sees it accepted.
   */
  async accept(
    userId: string,
    actor: TransferActor,
    code: string,
    input: TransferAcceptInput,
    now: Date,
  ): Promise<TransferAccepted> {
    const found = await this.findByCode(code);
    let moved: repo.AttendeeChange = { from: null, to: null };
    const done = await inTransaction(this.d.db, async (conn) => {
      const old = (await repo.lockTicketById(conn, found.ticket_id))!;
      const t = (await repo.lockTransferById(conn, found.id))!;
      if (t.state === 'accepted' && String(t.receiver_user_id) === userId) return this.accepted(conn, t);
      if (t.state !== 'open') throw appError('TRANSFER_CODE_INVALID');
      if (String(t.giver_user_id) === userId) throw appError('TRANSFER_SELF');
      if (t.expires_at.getTime() <= now.getTime()) throw appError('TRANSFER_CLOSED');
      // Re-checked under the locks: the rules may have changed, the session been cancelled, or
      // the ticket held for a session-cancel refund since the offer was made.
      const ctx = await repo.sessionContext(conn, old.session_id);
      this.checkRules(ctx, now);
      if (old.status !== TICKET_STATUS.TRANSFERRING || (await repo.checkedIn(conn, old.id)))
        throw appError('TICKET_NOT_TRANSFERABLE');
      const attendee = ctx.real_name
        ? await this.rebindAttendee(conn, userId, old, input)
        : { from: null, to: null };
      await move(conn, 'tickets', old.id, TICKET_LIFECYCLE.handOver);
      // The old phone's codes die with the old ticket (and offline bundles list the binding).
      const live = await liveBinding(conn, old.id);
      if (live) await revokeBinding(conn, live.id, 'transfer', now);
      const newId = await repo.insertReceivedTicket(conn, old, {
        ticketNo: newTicketNo(),
        secret: randomBytes(32).toString('base64url'),
        userId,
        now,
      });
      await repo.markAccepted(conn, t.id, { receiverId: userId, newTicketId: newId, now, attendee });
      await recordAudit(conn, this.auditEntry(actor, t, old, newId, attendee), now);
      moved = attendee;
      return this.accepted(conn, (await repo.lockTransferById(conn, t.id))!);
    });
    if (moved.from && moved.to && moved.from.id_hash !== moved.to.idHash)
      await this.gateFollows(found, moved.from.id_hash, moved.to.idHash);
    return done;
  }

  /**
   * Redis follows the committed claim: the receiver's ID is refused at the gate at once, the
   * giver's freed. If Redis is down or lost the session, MySQL still refuses a second ticket for
   * the ID (attendee_claims) and a rebuild reads the moved claim.
   */
  private async gateFollows(t: repo.TransferRow, fromHash: string, toHash: string): Promise<void> {
    try {
      await this.d.inventory?.moveAttendee(String(t.session_id), String(t.order_id), fromHash, toHash);
    } catch (err) {
      this.d.log?.warn({ err, transferId: String(t.id) }, 'Redis did not take a transferred attendee');
    }
  }

  private auditEntry(
    actor: TransferActor,
    t: repo.TransferRow,
    old: repo.TicketRow,
    newId: string,
    attendee: repo.AttendeeChange,
  ) {
    return {
      actor,
      action: 'ticket.transfer',
      entityType: 'ticket',
      entityId: old.ticket_no,
      before: { userId: String(t.giver_user_id), attendee: attendee.from?.id_masked ?? null },
      after: { transferId: String(t.id), newTicketId: newId, attendee: attendee.to?.idMasked ?? null },
    };
  }

  private async accepted(conn: Conn, t: repo.TransferRow): Promise<TransferAccepted> {
    return {
      transferId: String(t.id),
      ticketId: await repo.ticketNoOf(conn, t.new_ticket_id!),
      acceptedAt: t.closed_at!.toISOString(),
    };
  }

  /**
   * Real-name: the item's attendee becomes the receiver's named one, and the session's claim on
   * the giver's ID moves to it. One ID, one ticket per session: an ID already holding a ticket
   * of the session is refused (the claim's primary key, whatever Redis says).
   */
  private async rebindAttendee(
    conn: Conn,
    userId: string,
    old: repo.TicketRow,
    input: TransferAcceptInput,
  ): Promise<repo.AttendeeChange> {
    const who = await this.attendeeOf(conn, userId, input);
    const cur = await repo.lockItemAttendee(conn, old.order_id, old.order_item_id);
    if (!cur) throw new Error(`real-name ticket ${old.id} has no attendee`);
    const sealed = this.d.vault.seal(who);
    if (sealed.idHash !== cur.id_hash) {
      try {
        await repo.moveAttendeeClaim(conn, {
          sessionId: old.session_id,
          orderId: old.order_id,
          fromHash: cur.id_hash,
          toHash: sealed.idHash,
        });
      } catch (err) {
        if (sqlErrno(err) === ER_DUP_ENTRY) throw appError('ID_TAKEN');
        throw err;
      }
    }
    await repo.replaceAttendee(conn, cur.id, sealed);
    return { from: cur, to: sealed };
  }

  private async attendeeOf(
    conn: Conn,
    userId: string,
    input: TransferAcceptInput,
  ): Promise<{ name: string; idType: string; idNumber: string }> {
    if (input.attendee) return input.attendee;
    if (input.savedAttendeeId) {
      const s = await repo.savedAttendee(conn, userId, input.savedAttendeeId);
      if (!s) throw appError('NOT_FOUND', undefined, '常用观演人不存在');
      return {
        name: this.d.vault.decrypt(s.name_enc),
        idType: s.id_type,
        idNumber: this.d.vault.decrypt(s.id_number_enc),
      };
    }
    throw appError('VALIDATION_FAILED', undefined, '实名制场次请选择观演人');
  }

  /**
   * Offers past their cutoff go back to VALID (the scheduler's sweeper). Each in its own short
   * transaction, ticket then transfer locked; an offer accepted or cancelled meanwhile is skipped.
   */
  async expireDue(now: Date, limit = 200): Promise<number> {
    let n = 0;
    for (const id of await repo.dueOffers(this.d.db, now, limit)) {
      const done = await inTransaction(this.d.db, async (conn) => {
        await repo.lockTicketById(conn, await repo.ticketOfTransfer(conn, id));
        const t = await repo.lockTransferById(conn, id);
        if (t?.state !== 'open' || t.expires_at.getTime() > now.getTime()) return false;
        await repo.closeTransfer(conn, id, 'expired', now);
        await tryMove(conn, 'tickets', t.ticket_id, TICKET_LIFECYCLE.withdrawTransfer);
        return true;
      });
      if (done) n++;
    }
    return n;
  }

  async settings(showId: string): Promise<TransferSettings> {
    const s = await repo.settingsOf(this.d.db, showId);
    return s ?? { enabled: false, cutoffMinutes: 120, onceOnly: true };
  }

  /** The organiser's rules (audited). Open offers keep their expiry; accepting re-checks the rules. */
  async saveSettings(
    actor: TransferActor,
    showId: string,
    s: TransferSettings,
    now: Date,
  ): Promise<TransferSettings> {
    await inTransaction(this.d.db, async (conn) => {
      if (!(await repo.lockShow(conn, showId))) throw appError('NOT_FOUND');
      const before = await repo.settingsOf(conn, showId);
      await repo.saveSettings(conn, showId, s, actor.username, now);
      await recordAudit(
        conn,
        {
          actor,
          action: 'show.transfer_settings',
          entityType: 'show',
          entityId: showId,
          before: before ?? null,
          after: s,
        },
        now,
      );
    });
    return s;
  }

  /** Every transfer of an order (by its number), oldest first: the admin order drawer. */
  async ofOrder(orderNo: string): Promise<AdminTransferView[]> {
    const orderId = (await orders.byNo(this.d.db, orderNo))?.id;
    if (!orderId) throw appError('NOT_FOUND', undefined, '订单不存在');
    const rows = await transfersOfOrder(this.d.db, orderId);
    return rows.map((r) => ({
      id: String(r.id),
      state: r.state,
      fromTicketNo: r.from_ticket_no,
      toTicketNo: r.to_ticket_no ?? null,
      giverUserId: String(r.giver_user_id),
      receiverUserId: r.receiver_user_id === null ? null : String(r.receiver_user_id),
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at.toISOString(),
      closedAt: r.closed_at ? r.closed_at.toISOString() : null,
      fromAttendee: r.from_id_masked ? { name: r.from_name_masked!, idNumber: r.from_id_masked } : null,
      toAttendee: r.to_id_masked ? { name: r.to_name_masked!, idNumber: r.to_id_masked } : null,
    }));
  }

  /** Open offers of a fan's tickets with their codes (the wallet). */
  async openOffers(userId: string): Promise<Map<string, { code: string; expiresAt: string }>> {
    const offers = await repo.openOffersOfUser(this.d.db, userId);
    return new Map(
      [...offers].map(([ticketId, t]) => [
        ticketId,
        { code: this.codeOf(t), expiresAt: t.expires_at.toISOString() },
      ]),
    );
  }
}
