import { createHash } from 'node:crypto';
import type { Exchange, ExchangeRequest } from '@showtix/shared-types';
import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/service';
import type { SessionCatalog } from '../catalog/types';
import { ER_DUP_ENTRY, inTransaction, sqlErrno, type Conn, type Db } from '../db/pool';
import { appError } from '../errors';
import { sleep, type InventoryService } from '../inventory/service';
import type { TakeRequest, TakeResult } from '../inventory/types';
import { buildOrder, resolveUnits, type Units } from '../orders/create';
import type { IdGenerator } from '../orders/ids';
import { orders, itemsOf, refundsOf } from '../orders/repo';
import { insertStatements, runStatement } from '../orders/insert-repo';
import { ORDER_LIFECYCLE, move } from '../lifecycle/transitions';
import { ORDER_STATUS, type NewOrder, type OrderRecord } from '../orders/types';
import { orderView } from '../orders/views';
import { classifyWrite, WriteError } from '../orders/writer';
import type { OutboxRelay } from '../outbox/relay';
import { issueTickets } from '../tickets/service';
import { payments } from '../payments/repo';
import { refundedOrOpenFen } from '../refunds/items-repo';
import {
  claimIds,
  copyAttendees,
  exchangeable,
  exchangesOf,
  exchanges,
  freeCancelledExchanges,
  idHashesOf,
  insertExchange,
  showExchangeRules,
  ticketsOfOrder,
  type OldTicket,
} from './repo';
import { exchangeView } from './views';

export interface ExchangeDeps {
  db: Db;
  inventory: InventoryService;
  catalog: CatalogService;
  ids: IdGenerator;
  relay: OutboxRelay;
  log: Logger;
  /** holdGraceMs: how long a Redis hold outlives its order's expiry. */
  config: { holdGraceMs: number };
}

/** How long a retry waits for the first request with its idempotency key to finish writing. */
const REPLAY_WAIT_MS = 3_000;

const WRITE_REFUSALS = {
  seat_taken: 'SEAT_TAKEN',
  unit_taken: 'SOLD_OUT',
  id_taken: 'ID_TAKEN',
  limit: 'LIMIT_EXCEEDED',
  show_limit: 'LIMIT_EXCEEDED',
} as const;

/** What an exchange request resolved to before anything is held. */
interface Plan {
  original: OrderRecord;
  old: OldTicket[];
  to: SessionCatalog;
  units: Units;
  sameSession: boolean;
  /** The ID hashes of the old tickets' attendees (real-name), in ticket order. */
  idHashes: string[];
}

/**
 * 改签: a fan moves tickets of a ticketed order to other seats of the same show. The new units
 * are bought by an exchange order through the purchase path's own gate (one Lua script holds
 * them, MySQL's unique claims refuse a double sale), written in one transaction with the
 * exchange under the original order's lock; the old tickets stay valid until the exchange order
 * is paid (at once when nothing is owed), and then one transaction gives them up and issues the
 * new ones (exchanges/complete.ts, run by the tickets consumer).
 */
export class ExchangeService {
  constructor(private readonly d: ExchangeDeps) {}

  async request(
    userId: string,
    orderNo: string,
    input: ExchangeRequest,
    key: string | undefined,
    now: Date,
  ): Promise<Exchange> {
    const plan = await this.plan(userId, orderNo, input, now);
    const expireAt = new Date(now.getTime() + plan.to.holdMinutes * 60_000);
    const n = plan.old.length;
    const hash = exchangeHash(input);
    const take: TakeRequest = {
      sessionId: plan.to.id,
      orderId: this.d.ids.next(now.getTime()),
      userId,
      nowMs: now.getTime(),
      holdUntilMs: expireAt.getTime() + this.d.config.holdGraceMs,
      // The old tickets still count until they are given up: an exchange within the session
      // may go over the limit by exactly the tickets it replaces.
      limit: plan.to.purchaseLimit + (plan.sameSession ? n : 0),
      idemField: key ? `${userId}:${exchangeKey(orderNo, key)}` : '',
      requestHash: hash,
      // Same session: the IDs stay claimed by the old order until the exchange moves them.
      idHashes: plan.sameSession ? [] : plan.idHashes,
    };
    const taken = await this.hold(take, plan.units);
    if (taken.kind === 'replay') return this.replay(userId, taken.orderId, plan.to.id, take.idemField);
    if (taken.kind !== 'taken') throw appError(taken.kind === 'refused' ? taken.code : 'RATE_LIMITED');
    const order = this.newOrder(plan, take, taken.slots, key, now, expireAt);
    let exchangeId: string;
    try {
      exchangeId = await inTransaction(this.d.db, (c) => this.record(c, plan, order, now));
    } catch (err) {
      await this.d.inventory.release(plan.to.id, take.orderId, true).catch((e) => {
        this.d.log.error({ err: e }, 'releasing an exchange hold failed; the sweep will');
      });
      throw this.refusal(err);
    }
    this.d.relay.nudge();
    // Nothing to pay: the exchange is made at once (a crash here leaves a paid order without
    // tickets, which the stuck-money job finishes).
    if (order.amountFen === 0) await this.settleFree(order.id, now);
    return this.view(userId, exchangeId);
  }

  /** Ownership, rules, tickets and target, read before anything is held (re-checked under lock). */
  private async plan(userId: string, orderNo: string, input: ExchangeRequest, now: Date): Promise<Plan> {
    const original = await this.owned(userId, orderNo);
    if (original.status !== ORDER_STATUS.TICKETED) throw appError('EXCHANGE_TICKET_INVALID');
    // A complimentary ticket stays on the seat the organiser held back for it (at price 0: an
    // exchange would release the reserved unit to public sale).
    if (original.channel === 'comp') throw appError('EXCHANGE_NOT_ALLOWED');
    const from = await this.d.catalog.requireSession(original.sessionId);
    const to = await this.d.catalog.requireSession(input.sessionId);
    if (to.showId !== from.showId) throw appError('EXCHANGE_OTHER_SHOW');
    const rules = await showExchangeRules(this.d.db, from.showId);
    if (!rules?.allowed) throw appError('EXCHANGE_NOT_ALLOWED');
    const cutoffMs = rules.cutoffMinutes * 60_000;
    if ([from, to].some((s) => now.getTime() > s.startsAt.getTime() - cutoffMs))
      throw appError('EXCHANGE_CLOSED');
    const old = await ticketsOfOrder(this.d.db, original.id, { ticketNos: input.ticketIds });
    if (old.length !== new Set(input.ticketIds).size || old.length !== input.ticketIds.length)
      throw appError('NOT_FOUND', undefined, '该门票不属于此订单');
    if (!old.every(exchangeable)) throw appError('EXCHANGE_TICKET_INVALID');
    const units = resolveUnits(
      { ...to, realName: false, purchaseLimit: Math.max(to.purchaseLimit, old.length) },
      {
        sessionId: to.id,
        ...(input.seatIds ? { seatIds: input.seatIds } : { zoneId: input.zoneId!, quantity: old.length }),
      },
    );
    const idHashes = from.realName
      ? await idHashesOf(
          this.d.db,
          original.id,
          old.map((t) => t.position),
        )
      : [];
    if (to.realName && idHashes.length !== old.length)
      throw appError('VALIDATION_FAILED', { field: 'attendees' }, '实名制场次需为每张票绑定观演人');
    return { original, old, to, units, sameSession: to.id === from.id, idHashes };
  }

  private hold(take: TakeRequest, units: Units): Promise<TakeResult> {
    return units.kind === 'seats'
      ? this.d.inventory.lockSeats(take, units.seatIds)
      : this.d.inventory.takeZone(take, units.zone.id, units.quantity);
  }

  /** The exchange order: the new units at their prices; it asks only the difference, if any. */
  private newOrder(
    plan: Plan,
    take: TakeRequest,
    slots: number[],
    key: string | undefined,
    now: Date,
    expireAt: Date,
  ): NewOrder {
    const built = buildOrder({
      id: take.orderId,
      userId: take.userId,
      cat: plan.to,
      units: plan.units,
      slots,
      idempotencyKey: key ? exchangeKey(plan.original.orderNo, key) : null,
      requestHash: take.requestHash,
      now,
      expireAt,
      attendees: [],
      admissionJti: null,
      admissionUntil: null,
      contactPhone: null,
    });
    const oldFen = plan.old.reduce((s, t) => s + t.price_fen, 0);
    const n = plan.old.length;
    return {
      ...built,
      amountFen: Math.max(0, built.amountFen - oldFen),
      purchaseLimit: take.limit,
      showLimit: built.showLimit === null ? null : built.showLimit + n,
    };
  }

  /**
   * One transaction under the original order's lock: the old tickets re-checked (valid, not
   * admitted, in no live exchange), the exchange order written with its claims (the unique keys
   * refuse a seat someone else bought meanwhile), and the exchange linking both.
   */
  private async record(c: Conn, plan: Plan, order: NewOrder, now: Date): Promise<string> {
    await orders.byId(c, plan.original.id, { lock: true });
    await freeCancelledExchanges(c, plan.original.id);
    const old = await ticketsOfOrder(
      c,
      plan.original.id,
      { itemIds: plan.old.map((t) => t.order_item_id) },
      true,
    );
    if (old.length !== plan.old.length || !old.every(exchangeable)) throw appError('EXCHANGE_TICKET_INVALID');
    const newFen = order.items.reduce((s, i) => s + i.priceFen, 0);
    const oldFen = old.reduce((s, t) => s + t.price_fen, 0);
    if (newFen < oldFen && !(await refundable(c, plan.original.id, oldFen - newFen)))
      throw appError('EXCHANGE_NOT_ALLOWED', undefined, '该订单的门票不能改签到更低价位');
    const exchangeId = await insertExchange(
      c,
      {
        userId: order.userId,
        originalOrderId: plan.original.id,
        exchangeOrderId: order.id,
        fromSessionId: plan.original.sessionId,
        toSessionId: plan.to.id,
        oldFen,
        newFen,
        now,
      },
      plan.old,
    ).catch((err) => {
      throw sqlErrno(err) === ER_DUP_ENTRY ? appError('EXCHANGE_IN_PROGRESS') : err;
    });
    // The real-name holder moves with the ticket. Another session claims the IDs there (one ID,
    // one ticket per session, by its unique key); the same session keeps the old order's claims
    // until the exchange completes and moves them.
    await runInserts(c, order);
    await copyAttendees(
      c,
      plan.original.id,
      plan.old.map((t) => t.position),
      order.id,
    );
    if (!plan.sameSession)
      await claimIds(c, plan.to.id, order.id, plan.idHashes).catch((err) => {
        throw sqlErrno(err) === ER_DUP_ENTRY ? appError('ID_TAKEN') : err;
      });
    return exchangeId;
  }

  private refusal(err: unknown): unknown {
    if (!(err instanceof WriteError)) return err;
    if (err.reason in WRITE_REFUSALS)
      return appError(WRITE_REFUSALS[err.reason as keyof typeof WRITE_REFUSALS]);
    if (err.reason === 'idempotency_duplicate') return appError('REQUEST_IN_PROGRESS');
    this.d.log.error({ err: err.cause }, 'exchange write failed');
    return appError('SERVICE_UNAVAILABLE');
  }

  /** Nothing owed (same price or cheaper): paid at once, then settled as a paid one is. */
  private async settleFree(orderId: string, now: Date): Promise<void> {
    await inTransaction(this.d.db, async (c) => {
      const o = await orders.byId(c, orderId, { lock: true });
      if (o?.status === ORDER_STATUS.PENDING)
        await move(c, 'orders', orderId, ORDER_LIFECYCLE.pay, { paid_at: now });
    });
    await issueTickets(this.d, orderId, now);
  }

  /**
   * The same key arrived again; its exchange may still be on its way to MySQL. Answers it once it
   * is there; REQUEST_IN_PROGRESS if the first request failed and gave its key up meanwhile (the
   * next retry starts afresh) or is still writing after REPLAY_WAIT_MS.
   */
  private async replay(
    userId: string,
    orderId: string,
    sessionId: string,
    idemField: string,
  ): Promise<Exchange> {
    for (let waited = 0; waited <= REPLAY_WAIT_MS; waited += 25) {
      const ex = await exchanges.byExchangeOrderOfUser(this.d.db, orderId, userId);
      if (ex) return this.view(userId, ex.id);
      if ((await this.d.inventory.idempotentOrder(sessionId, idemField)) !== orderId) break;
      await sleep(25);
    }
    throw appError('REQUEST_IN_PROGRESS');
  }

  /** An exchange of the fan's, with its exchange order. */
  async view(userId: string, exchangeId: string): Promise<Exchange> {
    const ex = await exchanges.byIdOfUser(this.d.db, exchangeId, userId);
    if (!ex) throw appError('NOT_FOUND');
    const [row] = (await exchangesOf(this.d.db, [ex.exchangeOrderId])).filter((r) => r.id === ex.id);
    const order = (await orders.byId(this.d.db, ex.exchangeOrderId))!;
    const [items, refunds] = await Promise.all([
      itemsOf(this.d.db, [order.id]),
      refundsOf(this.d.db, [order.id]),
    ]);
    return { ...exchangeView(row!), order: orderView(order, items, refunds.get(order.id)) };
  }

  /** The exchanges of one of the fan's orders (as the original or as the exchange order). */
  async ofOrder(userId: string, orderNo: string): Promise<{ items: Exchange[] }> {
    const o = await this.owned(userId, orderNo);
    return { items: (await exchangesOf(this.d.db, [o.id])).map(exchangeView) };
  }

  private async owned(userId: string, orderNo: string): Promise<OrderRecord> {
    const o = /^\d{6,32}$/.test(orderNo) ? await orders.byNo(this.d.db, orderNo) : undefined;
    if (!o || o.userId !== userId) throw appError('NOT_FOUND', undefined, '订单不存在');
    return o;
  }
}

/**
 * The exchange order's idempotency key: the fan's key scoped to the original order, hashed to fit
 * the column (a purchase key never starts with 'x' and a '.' never ends one: no collision).
 */
function exchangeKey(orderNo: string, key: string): string {
  return `x${createHash('sha256').update(`${orderNo}:${key}`).digest('hex').slice(0, 40)}.`;
}

/** Canonical hash of what was asked, to tell a retry from a different request under one key. */
function exchangeHash(input: ExchangeRequest): string {
  const canonical = {
    t: [...input.ticketIds].sort(),
    s: input.sessionId,
    seats: input.seatIds ? [...input.seatIds] : null,
    zone: input.zoneId ?? null,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * Whether the order's own payment can give back this much more (a cheaper seat's difference is
 * refunded on it): an exchange order paid only a difference, or nothing, so its tickets may not
 * go down in price.
 */
async function refundable(c: Conn, orderId: string, fen: number): Promise<boolean> {
  const payment = await payments.appliedOfOrderLocked(c, orderId);
  return !!payment && payment.amountFen - (await refundedOrOpenFen(c, payment.id)) >= fen;
}

/** The purchase path's INSERTs, statement by statement, so a refused one names its reason. */
async function runInserts(c: Conn, order: NewOrder): Promise<void> {
  for (const s of insertStatements([order])) {
    try {
      await runStatement(c, s);
    } catch (err) {
      throw classifyWrite(err, s.step);
    }
  }
}
