import { createHash, randomBytes } from 'node:crypto';
import {
  maskName,
  seatLabel,
  type CompClaimView,
  type CompIssueInput,
  type CompListView,
  type CompView,
  type CompVoidInput,
} from '@showtix/shared-types';
import type { Actor } from '../audit/actor';
import { audited } from '../audit/tx';
import { ER_DUP_ENTRY, inTransaction, sqlErrno, type Conn } from '../db/pool';
import { appError } from '../errors';
import { ORDER_STATUS, TICKET_STATUS } from '../lifecycle/statuses';
import { move, ORDER_LIFECYCLE, TICKET_LIFECYCLE } from '../lifecycle/transitions';
import { orderNoFor } from '../orders/ids';
import { admittedCount, lockOrderTickets, moveOrderTickets } from '../tickets/repo';
import { newTicketNo } from '../tickets/service';
import type { CompDeps } from './deps';
import * as repo from './repo';
import * as reservedRepo from './reserved-repo';
import { auditedInSession } from './reservations';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 10 characters of 32 (50 bits), no look-alikes: read out over the phone if need be. */
const newClaimCode = () => Array.from(randomBytes(10), (b) => CODE_ALPHABET[b % 32]).join('');
const codeHash = (code: string) => createHash('sha256').update(`comp|${code}`).digest('hex');
/** The same request under the same key replays; another request under it is a conflict. */
const requestHash = (input: CompIssueInput) => {
  const { idempotencyKey: _, ...rest } = input;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
};

/** Thrown inside the transaction when a concurrent issue with the same key committed first. */
class KeyTaken extends Error {}

/**
 * Complimentary tickets (赠票): issued by the organiser from reserved units to a named person,
 * without payment, as an order of channel 'comp' (amount 0) that goes through the lifecycle
 * (pending → granted → ticketed) in one audited transaction. The person gets a claim code to
 * open in the mini-program, which binds the tickets to their WeChat account. Voiding (no money:
 * never a refund) voids the tickets and gives the units back to the reservation.
 */
export class CompService {
  constructor(private readonly d: CompDeps) {}

  async issue(who: Actor, sessionId: string, input: CompIssueInput, now: Date): Promise<CompView> {
    const key = input.idempotencyKey;
    const hash = requestHash(input);
    const replay = await this.replay(key, hash);
    if (replay) return replay;
    const cat = await this.d.catalog.session(sessionId);
    if (!cat) throw appError('NOT_FOUND', undefined, '场次不存在');
    const qty = 'seatIds' in input ? input.seatIds.length : input.quantity;
    if (cat.realName && (!input.attendee || qty !== 1))
      throw appError('VALIDATION_FAILED', undefined, '实名场次每张赠票须登记一位观演人证件（一证一票）');
    if (!cat.realName && input.attendee)
      throw appError('VALIDATION_FAILED', undefined, '非实名场次无需登记证件');
    const attendee = input.attendee ? this.d.vault.seal(input.attendee) : undefined;
    const code = newClaimCode();
    let orderId: string;
    try {
      orderId = await auditedInSession(
        this.d.db,
        who,
        sessionId,
        now,
        async (c) => {
          const items = await this.pickUnits(c, sessionId, input);
          const id = this.d.ids.next(now.getTime());
          const orderNo = orderNoFor(id, now);
          await repo.insertCompOrder(c, { id, orderNo, sessionId, requestHash: hash, items, now });
          // The key's unique index: a concurrent issue under the same key committed first.
          await repo
            .insertCompPerson(c, id, sessionId, this.person(key, input, code), who.username, now)
            .catch((err: unknown) => {
              throw sqlErrno(err) === ER_DUP_ENTRY ? new KeyTaken() : err;
            });
          await this.claimUnits(c, sessionId, id, items);
          if (attendee)
            await repo.insertAttendee(c, id, sessionId, attendee).catch((err: unknown) => {
              throw sqlErrno(err) === ER_DUP_ENTRY ? appError('ID_TAKEN') : err;
            });
          await move(c, 'orders', id, ORDER_LIFECYCLE.grant); // no payment: paid_at stays empty
          await repo.insertTickets(
            c,
            id,
            sessionId,
            () => ({ no: newTicketNo(), secret: randomBytes(32).toString('base64url') }),
            now,
          );
          await move(c, 'orders', id, ORDER_LIFECYCLE.issue);
          return id;
        },
        (id) => ({
          action: 'comp.issue',
          entityType: 'order',
          entityId: id,
          after: { sessionId, quantity: qty, name: maskName(input.name), note: input.note ?? '' },
        }),
      );
    } catch (err) {
      if (!(err instanceof KeyTaken)) throw err;
      const again = await this.replay(key, hash);
      if (!again) throw err;
      return again;
    }
    if (attendee) await this.d.inventory.markCompId(sessionId, attendee.idHash, orderId, true);
    return this.get(orderId);
  }

  private async replay(key: string, hash: string): Promise<CompView | undefined> {
    const prior = await repo.compOrderByKey(this.d.db, key);
    if (!prior) return undefined;
    if (prior.request_hash !== hash) throw appError('IDEMPOTENCY_CONFLICT');
    return this.get(prior.id);
  }

  private person(key: string, input: CompIssueInput, code: string): repo.CompPerson {
    const phone = this.d.vault.sealPhone(input.phone);
    return {
      idemKey: key,
      nameEnc: this.d.vault.encrypt(input.name),
      nameMasked: maskName(input.name),
      phoneEnc: phone.enc,
      phoneMasked: phone.masked,
      phoneHash: phone.hash,
      note: input.note ?? '',
      codeEnc: this.d.vault.encrypt(code),
      codeHash: codeHash(code),
    };
  }

  /** The reserved units the comp takes (locked), with their tiers. */
  private async pickUnits(
    c: Conn,
    sessionId: string,
    input: CompIssueInput,
  ): Promise<repo.NewCompOrder['items']> {
    if ('seatIds' in input) {
      const seatIds = input.seatIds.map(String);
      const held = new Set(await reservedRepo.reservedSeatsLocked(c, sessionId, seatIds));
      const missing = seatIds.filter((id) => !held.has(id));
      if (missing.length) throw appError('UNIT_NOT_RESERVED', { seatIds: missing });
      const tiers = await repo.seatTiers(c, sessionId, seatIds);
      return seatIds.map((s) => ({ seatId: s, zoneId: null, slotNo: null, tierId: tiers.get(s)! }));
    }
    const zoneId = String(input.zoneId);
    const tierId = await repo.zoneTier(c, sessionId, zoneId);
    if (!tierId) throw appError('NOT_FOUND', undefined, '区域不属于本场次');
    const slots = await reservedRepo.freeReservedSlots(c, sessionId, zoneId, input.quantity, 'ASC');
    if (slots.length < input.quantity)
      throw appError('UNIT_NOT_RESERVED', { zoneId, available: slots.length });
    return slots.map((s) => ({ seatId: null, zoneId, slotNo: s, tierId }));
  }

  /** One live comp per reserved unit: comp_claims' key refuses a seat that carries one already. */
  private async claimUnits(c: Conn, sessionId: string, orderId: string, items: repo.NewCompOrder['items']) {
    const units = items.map((i) =>
      i.seatId ? reservedRepo.seatUnit(i.seatId) : reservedRepo.slotUnit(i.zoneId!, i.slotNo!),
    );
    await repo.insertCompClaims(c, sessionId, orderId, units).catch((err: unknown) => {
      throw sqlErrno(err) === ER_DUP_ENTRY ? appError('UNIT_IN_USE') : err;
    });
  }

  /** Voids a comp order: its tickets stop admitting, its units go back to the reservation. */
  /**
   * `also`: more of the same transaction, given the comp's holder (a cancelled session tells
   * them there, so a crash never voids without the notice, nor tells twice).
   */
  async void(
    who: Actor,
    orderId: string,
    input: CompVoidInput,
    now: Date,
    also?: (c: Conn, holder: string | null) => Promise<void>,
  ): Promise<CompView> {
    const freed = await audited(
      this.d.db,
      who,
      now,
      async (c) => {
        const row = await repo.compOrder(c, 'order', orderId, true);
        if (!row) throw appError('NOT_FOUND', undefined, '赠票订单不存在');
        if (row.status === ORDER_STATUS.CANCELLED) return { sessionId: String(row.session_id), ids: [] }; // voided: a retry
        // Every entry accounted for: a ticket that let someone in is never voided after.
        const tickets = await lockOrderTickets(c, orderId);
        if ((await admittedCount(c, tickets)) > 0)
          throw appError('TICKET_CHECKED_IN', undefined, '赠票已检票入场，不能作废');
        const ids = await repo.attendeeClaimsOf(c, orderId);
        await moveOrderTickets(c, orderId, TICKET_LIFECYCLE.void, now);
        await move(c, 'orders', orderId, ORDER_LIFECYCLE.voidComp, {
          cancelled_at: now,
          cancel_reason: 'comp_void',
        });
        await repo.releaseCompClaims(c, orderId);
        await repo.markVoided(c, orderId, who.username, input.reason, now);
        await also?.(c, row.claimed_by == null ? null : String(row.claimed_by));
        return { sessionId: String(row.session_id), ids };
      },
      { action: 'comp.void', entityType: 'order', entityId: orderId, after: { reason: input.reason } },
    );
    for (const id of freed.ids) await this.d.inventory.markCompId(freed.sessionId, id, orderId, false);
    return this.get(orderId);
  }

  /** The person binds the comp tickets to their WeChat account with the code they were given. */
  async claim(userId: string, code: string, now: Date): Promise<CompClaimView> {
    return inTransaction(this.d.db, async (c) => {
      const row = await repo.compOrder(c, 'code', codeHash(code), true);
      if (!row || row.status !== ORDER_STATUS.TICKETED) throw appError('COMP_CODE_INVALID');
      if (row.claimed_by !== null && String(row.claimed_by) !== userId)
        throw appError('COMP_ALREADY_CLAIMED');
      if (row.claimed_by === null) await repo.bindToUser(c, String(row.order_id), userId, now);
      const tickets = await lockOrderTickets(c, String(row.order_id));
      return {
        orderId: String(row.order_id),
        orderNo: row.order_no,
        sessionId: String(row.session_id),
        tickets: tickets.length,
      };
    });
  }

  async list(sessionId: string): Promise<CompListView> {
    return { items: await this.views(await repo.compOrdersOfSession(this.d.db, sessionId)) };
  }

  async get(orderId: string): Promise<CompView> {
    const row = await repo.compOrder(this.d.db, 'order', orderId);
    if (!row) throw appError('NOT_FOUND', undefined, '赠票订单不存在');
    return (await this.views([row]))[0]!;
  }

  private async views(rows: repo.CompOrderView[]): Promise<CompView[]> {
    const ids = rows.map((r) => String(r.order_id));
    const tickets = await repo.ticketsOf(this.d.db, ids);
    const masks = await repo.attendeeMasks(this.d.db, ids);
    return rows.map((r) => ({
      orderId: String(r.order_id),
      orderNo: r.order_no,
      sessionId: String(r.session_id),
      state: r.status === ORDER_STATUS.CANCELLED ? 'voided' : r.claimed_by !== null ? 'claimed' : 'issued',
      nameMasked: r.name_masked,
      phoneMasked: r.phone_masked,
      idMasked: masks.get(String(r.order_id)) ?? null,
      note: r.note,
      claimCode: this.d.vault.decrypt(r.code_enc),
      tickets: tickets
        .filter((t) => String(t.order_id) === String(r.order_id))
        .map((t) => ({
          ticketNo: t.ticket_no,
          label: t.section
            ? seatLabel({ section: t.section, row: t.row_label!, number: t.seat_number! })
            : `${t.zone_name ?? ''}`,
          status: t.status === TICKET_STATUS.VOIDED ? ('voided' as const) : ('valid' as const),
        })),
      issuedBy: r.issued_by,
      issuedAt: r.issued_at.toISOString(),
      claimedAt: r.claimed_at ? r.claimed_at.toISOString() : null,
      voidedBy: r.voided_by ?? null,
      voidedAt: r.voided_at ? r.voided_at.toISOString() : null,
      voidReason: r.void_reason ?? null,
    }));
  }
}
