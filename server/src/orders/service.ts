import type { CreateOrderInput, Order, Page } from '@showtix/shared-types';
import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/service';
import type { SessionCatalog } from '../catalog/types';
import type { Db } from '../db/pool';
import { AppError, appError } from '../errors';
import type { InventoryService } from '../inventory/service';
import type { TakeRequest } from '../inventory/types';
import { buildOrder, requestHash, resolveUnits, tiersOf, type Units } from './create';
import type { IdGenerator } from './ids';
import { exchangeOriginalNo, orders, itemsOf, listOrdersOfUser, refundsOf } from './repo';
import { ORDER_STATUS, ORDER_STATUS_NAME, type OrderRecord } from './types';
import { newOrderView, orderView } from './views';
import { CANCEL, type CancelGuard, type Cancellation, type CancelReason } from './cancel';
import { expirePlain } from './expire-batch';
import { PURCHASE, type Purchase } from './purchase';
import type { OrderWriter } from './writer';
import { afterWriteFailure, awaitReplay } from './replay';
import type { IdentityVault } from '../attendees/crypto';
import type { AdmissionTokens } from '../queue/tokens';
import type { RiskService } from '../risk/service';
import type { Client } from '../risk/limits';
import type { CheapRefusal, RefusalSnapshot } from './refusals';

export interface OrderServiceDeps {
  db: Db;
  writer: OrderWriter;
  inventory: InventoryService;
  catalog: CatalogService;
  ids: IdGenerator;
  log: Logger;
  holdGraceMs: number;
  vault: IdentityVault;
  admissions: AdmissionTokens;
  risk: RiskService;
  /** What this instance knows makes a purchase fail (cheap refusals, orders/refusals.ts). */
  refusals: RefusalSnapshot;
  /** Counts committed orders (Prometheus orders_created_total). */
  created: { inc(): void };
  /** Real-name waiting room: which account joined with each of these ID hashes (null: none). */
  queuedIds?: (sessionId: string, idHashes: string[]) => Promise<(string | null)[]>;
  /** Payments close the WeChat order before any cancellation (payments/service.ts). */
  guard: CancelGuard;
  /** The one refund path (refunds/service.ts). */
  refundOrder: RefundOrder;
}

/** The one refund path (buyer and admin), provided by the refunds domain. */
export type RefundOrder = (o: {
  orderId: string;
  by: { kind: 'buyer'; id: string };
  reason?: string;
  now: Date;
  ticketIds?: string[];
}) => Promise<unknown>;

const REPLAY_RERUNS_MAX = 5;

/** Orders placed by the server itself (tests, tools): no address or device to rate-limit. */
const INTERNAL: Client = { ip: undefined, device: undefined };

export class OrderService {
  constructor(private readonly d: OrderServiceDeps) {}

  /** A new order id from this node's generator (complimentary orders, comp/, take theirs here). */
  newOrderId(nowMs: number = Date.now()): string {
    return this.d.ids.next(nowMs);
  }

  /**
   * A real-name waiting room gives a place to one ID document: the order that place buys must
   * be for that document, or one person's place would buy another's tickets.
   */
  private async requireQueuedAttendee(sessionId: string, userId: string, idHashes: string[]): Promise<void> {
    if (!this.d.queuedIds) return;
    const owners = await this.d.queuedIds(sessionId, idHashes);
    if (!owners.includes(userId)) throw appError('QUEUE_ID_NOT_ATTENDEE');
  }

  /**
   * Redis decides (one script: hold, limit, idempotency), MySQL records (group commit with
   * unique claims as the backstop): the purchase workflow (orders/purchase.ts), after the
   * refusals this instance can give cheaply. Anything that fails after Redis said yes gives the
   * holds back.
   */
  async create(
    userId: string,
    input: CreateOrderInput,
    idempotencyKey: string | undefined,
    now: Date,
    client: Client = INTERNAL,
  ): Promise<Order> {
    const cat = await this.d.catalog.requireSession(input.sessionId);
    const units = resolveUnits(cat, input);
    const idHashes = cat.realName ? input.attendees!.map((a) => this.d.vault.idHash(a.idNumber)) : [];
    await this.d.risk.guardPurchaseBlocklist(userId, client, now.getTime(), idHashes);
    const admission = cat.queueEnabled
      ? this.d.admissions.verify(input.admissionToken, cat.id, userId, now.getTime())
      : undefined;
    const idemField = idempotencyKey ? `${userId}:${idempotencyKey}` : '';
    const cheap = await this.cheapRefusal(cat.id, userId, units, cat.purchaseLimit, idemField);
    if (cheap) throw appError(cheap.code, cheap.details);
    // Returned units of a tier with fans on its waiting list are offered to them first (Damai's
    // rule). Not the invariant: if a fan joins right after this check, the take script still
    // gives each unit to exactly one of this buyer and the offer.
    if (await this.waitlistFirst(cat, units, idemField)) throw appError('WAITLIST_FIRST');
    const rates = await this.d.risk.purchaseRates(userId, client);
    if (admission && cat.realName) await this.requireQueuedAttendee(cat.id, userId, idHashes);
    const hash = requestHash(input);
    const expireAt = new Date(now.getTime() + cat.holdMinutes * 60_000);
    const take: TakeRequest = {
      sessionId: cat.id,
      orderId: this.d.ids.next(now.getTime()),
      userId,
      nowMs: now.getTime(),
      holdUntilMs: expireAt.getTime() + this.d.holdGraceMs,
      limit: cat.purchaseLimit,
      idemField,
      requestHash: hash,
      idHashes,
      rates,
      cooldown: true,
      ...(admission ? { admission } : {}),
    };
    const purchase: Purchase = {
      d: this.d,
      take,
      units,
      admissionJti: admission?.jti,
      // Sealed only once the units are held: in a flash sale most requests are refused, and a
      // refusal should not pay for two AES-GCM encryptions per attendee.
      build: (slots) =>
        buildOrder({
          id: take.orderId,
          userId,
          cat,
          units,
          slots,
          idempotencyKey: idempotencyKey ?? null,
          requestHash: hash,
          now,
          expireAt,
          attendees: cat.realName ? input.attendees!.map((a, i) => this.d.vault.seal(a, idHashes[i])) : [],
          admissionJti: admission?.jti ?? null,
          admissionUntil: admission ? new Date(now.getTime() + admission.ttlMs) : null,
          contactPhone: input.contactPhone ? this.d.vault.sealPhone(input.contactPhone) : null,
        }),
    };
    return this.purchase(purchase, cat, idempotencyKey, now);
  }

  /** Runs the purchase workflow; a replay answers the earlier request's order. */
  private async purchase(
    p: Purchase,
    cat: SessionCatalog,
    key: string | undefined,
    now: Date,
  ): Promise<Order> {
    const { take } = p;
    for (let reruns = 0; ; reruns++) {
      try {
        await PURCHASE.run(p);
      } catch (err) {
        if (err instanceof AppError) throw err; // refused by the take script: nothing was held
        return this.view(await afterWriteFailure(this.d, err, take.userId, key, take.requestHash, now));
      }
      if (!p.replayOf) break;
      const replayed = await awaitReplay(this.d, take.userId, p.replayOf, cat.id, take.idemField);
      if (replayed) return this.view(replayed);
      // The request that had this key failed and gave it up: this one starts afresh. Bounded,
      // because each rerun means another duplicate took the key and failed in between.
      if (reruns === REPLAY_RERUNS_MAX) throw appError('REQUEST_IN_PROGRESS');
      take.orderId = this.d.ids.next(now.getTime());
      take.rates = {}; // counted once: the rerun is the same request
      p.replayOf = undefined;
    }
    this.d.created.inc();
    if (p.taken!.availAfter <= 0) this.background(this.d.catalog.markSoldOut(cat.id), 'mark sold out');
    return newOrderView(p.order!, cat);
  }

  /**
   * A refusal from what this instance already knows (orders/refusals.ts), before the rate
   * counters, the request hash and the take script. A request with an idempotency key that
   * already booked an order must get that order back, not a refusal: the script answers a replay
   * before anything else, so such a request goes on to it. A seat known held by another user
   * settles it (this user's order cannot hold that seat; the one case answered differently is a
   * retry whose order was cancelled and its seat sold on: SEAT_TAKEN instead of the cancelled
   * order); otherwise one HGET of the key tells.
   */
  private async cheapRefusal(
    sessionId: string,
    userId: string,
    units: Units,
    limit: number,
    idemField: string,
  ): Promise<CheapRefusal | undefined> {
    const refusal = this.d.refusals.refusal(sessionId, userId, units, limit);
    if (!refusal || !idemField || refusal.heldByOther) return refusal;
    return (await this.d.inventory.idempotentOrder(sessionId, idemField)) ? undefined : refusal;
  }

  /**
   * A tier of these units has fans waiting (the cached catalog: no round trip); a retry of an
   * order already booked still replays.
   */
  private async waitlistFirst(cat: SessionCatalog, units: Units, idemField: string): Promise<boolean> {
    if (!cat.waitlistedTiers.size || !tiersOf(cat, units).some((t) => cat.waitlistedTiers.has(t)))
      return false;
    return !idemField || !(await this.d.inventory.idempotentOrder(cat.id, idemField));
  }

  async get(userId: string, orderNo: string): Promise<Order> {
    return this.view(await this.owned(userId, orderNo));
  }

  async list(
    userId: string,
    status: string | undefined,
    before: string | undefined,
    limit: number,
  ): Promise<Page<Order>> {
    const code = status
      ? Number(Object.entries(ORDER_STATUS_NAME).find(([, n]) => n === status)![0])
      : undefined;
    const rows = await listOrdersOfUser(this.d.db, userId, code, before, limit + 1);
    const page = rows.slice(0, limit);
    const ids = page.map((o) => o.id);
    const [items, refunds] = await Promise.all([itemsOf(this.d.db, ids), refundsOf(this.d.db, ids)]);
    const views = page.map((o) =>
      orderView(
        o,
        items.filter((i) => i.orderId === o.id),
        refunds.get(o.id),
      ),
    );
    return rows.length > limit ? { items: views, next: page[page.length - 1]!.id } : { items: views };
  }

  /** Before paying or cancelling: both make a signed WeChat API call, so both are rate-limited. */
  throttlePaymentCall(userId: string, client: Client): Promise<void> {
    return this.d.risk.guardPaymentCall(userId, client);
  }

  /** The buyer gives up a pending order. Cancelling a cancelled order answers it again. */
  async cancel(userId: string, orderNo: string, now: Date): Promise<Order> {
    const order = await this.owned(userId, orderNo);
    if (order.status === ORDER_STATUS.CANCELLED) return this.view(order);
    if (order.status !== ORDER_STATUS.PENDING)
      throw appError('ORDER_STATE_INVALID', undefined, '订单已支付，不能取消');
    // A buyer who cancels gets the waiting-room turn back (to pick other seats while it lasts).
    const c = await this.cancelFlow(order.id, 'buyer', now, order.admissionJti ?? undefined);
    if (c.settled === 'retry') throw appError('SERVICE_UNAVAILABLE');
    if (c.settled === 'paid') throw appError('ORDER_STATE_INVALID', undefined, '订单已支付，不能取消');
    // Undefined: someone else changed it first; answer its new state.
    return this.view(c.cancelled ?? (await this.owned(userId, orderNo)));
  }

  /** The expiry job's cancellation: a payment in progress is closed or honoured first. */
  async expire(orderId: string, now: Date): Promise<boolean> {
    return (await this.cancelFlow(orderId, 'expired', now)).cancelled !== undefined;
  }

  /**
   * The expiry job's batch (orders/expire-batch.ts): the orders whose payment never started, and
   * those in `settled` (closed at WeChat by settleBeforeExpiry); the others are returned.
   */
  async expirePlain(
    ids: readonly string[],
    now: Date,
    settled?: ReadonlySet<string>,
  ): Promise<{ cancelled: number; paymentStarted: string[] }> {
    const release = (sessionId: string, id: string) => this.releaseInventory(sessionId, id);
    const r = await expirePlain({ ...this.d, release }, ids, now, settled);
    return { cancelled: r.cancelled.length, paymentStarted: r.paymentStarted };
  }

  /**
   * The cancel workflow's first step alone, for the expiry job's batch: the payment of a due
   * order closed at WeChat ('cancel'), or honoured ('paid'), or to ask again ('retry').
   */
  settleBeforeExpiry(orderId: string, now: Date): Promise<'cancel' | 'paid' | 'retry'> {
    return this.d.guard(orderId, now);
  }

  /**
   * The organiser cancelled the session: a pending order is cancelled (a payment in progress is
   * closed or honoured first, as on expiry) and its seats go back. 'paid' means WeChat says it
   * was paid (the cancellation run then refunds it like any paid order).
   */
  async cancelForSession(orderId: string, now: Date): Promise<'cancelled' | 'paid' | 'retry'> {
    const c = await this.cancelFlow(orderId, 'session_cancelled', now);
    return c.settled === 'cancel' ? 'cancelled' : c.settled!;
  }

  /** Runs the cancel workflow (orders/cancel.ts) for one pending order. */
  private async cancelFlow(
    orderId: string,
    reason: CancelReason,
    now: Date,
    returnTurn?: string,
  ): Promise<Cancellation> {
    const c: Cancellation = {
      d: {
        ...this.d,
        release: (sessionId, id, turn) => this.releaseInventory(sessionId, id, turn),
      },
      orderId,
      reason,
      now,
      returnTurn,
    };
    await CANCEL.run(c);
    return c;
  }

  /**
   * The buyer asks for a refund of a ticketed order, under the show's refund rules: of the whole
   * order, or of the tickets named (ticket numbers) only.
   */
  async requestRefund(
    userId: string,
    orderNo: string,
    r: { reason?: string | undefined; ticketIds?: string[] | undefined },
    now: Date,
  ): Promise<Order> {
    const order = await this.owned(userId, orderNo);
    await this.d.refundOrder({
      orderId: order.id,
      by: { kind: 'buyer', id: userId },
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.ticketIds ? { ticketIds: r.ticketIds } : {}),
      now,
    });
    return this.view(await this.owned(userId, orderNo));
  }

  /**
   * Gives an order's units back in Redis and puts a sold-out session back on sale. A Redis
   * failure here is logged, not thrown: MySQL already freed the claims and the orphan sweep
   * (or a rebuild) frees the Redis side later.
   */
  async releaseInventory(sessionId: string, orderId: string, returnTurn?: string): Promise<void> {
    try {
      await this.giveBack(sessionId, orderId, returnTurn);
    } catch (err) {
      this.d.log.error({ err, sessionId, orderId }, 'releasing holds failed; the sweep will retry');
    }
  }

  /**
   * The same, throwing on a Redis failure: the inventory.release consumer (a refund's seats)
   * lets RabbitMQ retry, and the refunded-seats sweep is the backstop after that. units: only
   * those (a per-ticket refund), the order's other units stay sold.
   */
  async giveBack(
    sessionId: string,
    orderId: string,
    returnTurn?: string,
    units?: string[],
  ): Promise<'released' | 'not_held'> {
    const r = units
      ? await this.d.inventory.releaseUnits(sessionId, orderId, units)
      : await this.d.inventory.release(sessionId, orderId, false, returnTurn);
    if (r.kind === 'released' && r.availAfter > 0 && r.availAfter - r.freed <= 0) {
      await this.d.catalog.markBackOnSale(sessionId);
    }
    return r.kind === 'released' ? 'released' : 'not_held';
  }

  private async owned(userId: string, orderNo: string): Promise<OrderRecord> {
    const o = /^\d{6,32}$/.test(orderNo) ? await orders.byNo(this.d.db, orderNo) : undefined;
    // Another user's order answers exactly like a missing one: order numbers are not probes.
    if (!o || o.userId !== userId) throw appError('NOT_FOUND', undefined, '订单不存在');
    return o;
  }

  private async view(o: OrderRecord): Promise<Order> {
    const [items, refunds, from] = await Promise.all([
      itemsOf(this.d.db, [o.id]),
      refundsOf(this.d.db, [o.id]),
      exchangeOriginalNo(this.d.db, o.id),
    ]);
    return orderView(o, items, refunds.get(o.id), from);
  }

  private background(p: Promise<unknown>, what: string): void {
    p.catch((err) => this.d.log.error({ err }, `${what} failed`));
  }
}
