import type { AdminOrderDetail, AdminOrderRow, AdminPage, AdminTicketBinding } from '@showtix/shared-types';
import type { Db } from '../../db/pool';
import { appError } from '../../errors';
import { itemsOf } from '../repo';
import { auditOf, recordAudit } from '../../audit/repo';
import type { Actor } from '../../audit/actor';
import { ordersCsv, ordersXlsx } from './export';
import { attendeesOf, type PersonHasher } from './attendees-repo';
import * as repo from './repo';
import { orderRowView, PAYMENT_STATUS, REFUND_STATUS, seatLabel, TICKET_STATUS } from './views';
import { exchangesOf } from '../../exchanges/repo';
import { exchangeView } from '../../exchanges/views';

/**
 * The refund path the buyer's refunds take (server/src/refunds); admins refund without a fee
 * through it, the whole order or the tickets chosen (ticketIds).
 */
export interface RefundPath {
  refundOrder(o: {
    orderId: string;
    by: { kind: 'admin'; id: string };
    reason?: string;
    now: Date;
    ticketIds?: string[];
  }): Promise<unknown>;
}

export const EXPORT_ROWS_MAX = 50_000;

/** 'admin:3' -> '管理员 alice', 'buyer:…' -> '买家', 'system:late' -> '系统'. */
function requester(by: string, admins: Map<string, string>): string {
  const [kind, id = ''] = by.split(':');
  if (kind === 'admin') return `管理员 ${admins.get(id) ?? id}`;
  return kind === 'buyer' ? '买家' : kind === 'system' ? '系统' : by;
}

/** A device binding as the ticket view shows it: the key's first characters identify the phone. */
function bindingView(b: repo.AdminBinding): AdminTicketBinding {
  return {
    id: String(b.id),
    device: String(b.deviceKey).slice(0, 8),
    deviceId: b.deviceId ?? null,
    boundAt: b.createdAt.toISOString(),
    revokedAt: b.revokedAt ? b.revokedAt.toISOString() : null,
    revokedReason: b.revokedReason ?? null,
  };
}

export class AdminOrderService {
  /** `hasher`: the keyed hashes the purchase path stores ID numbers and phone numbers under. */
  constructor(
    private readonly db: Db,
    private readonly hasher: PersonHasher,
    /** Lists and exports may be a second stale (a replica); details and actions read the primary. */
    private readonly readDb: Db = db,
  ) {}

  async search(f: repo.OrderFilter, page: number, pageSize: number): Promise<AdminPage<AdminOrderRow>> {
    const offset = (page - 1) * pageSize;
    const { rows, total } = await repo.searchOrders(this.readDb, f, offset, pageSize, this.hasher);
    const attendees = await attendeesOf(
      this.readDb,
      rows.map((r) => String(r.id)),
    );
    const items = rows.map((r) => orderRowView(r, attendees.get(String(r.id))));
    return { items, total, page, pageSize };
  }

  async detail(orderNo: string): Promise<AdminOrderDetail> {
    const r = await repo.findOrderRow(this.db, orderNo);
    if (!r) throw appError('NOT_FOUND', undefined, '订单不存在');
    const id = String(r.id);
    const [attendees, items, tiers, payments, tickets, refunds, audit, admins, bindings, exchanges] =
      await Promise.all([
        attendeesOf(this.db, [id]),
        itemsOf(this.db, [id]),
        repo.tierNames(this.db, String(r.sessionId)),
        repo.paymentsOf(this.db, id),
        repo.ticketsOf(this.db, id),
        repo.refundsOf(this.db, id),
        auditOf(this.db, 'order', orderNo),
        repo.adminNames(this.db),
        repo.bindingsOf(this.db, id),
        exchangesOf(this.db, [id]),
      ]);
    return {
      ...orderRowView(r, attendees.get(id)),
      expireAt: r.expireAt.toISOString(),
      cancelledAt: r.cancelledAt ? r.cancelledAt.toISOString() : null,
      cancelReason: r.cancelReason ?? null,
      items: items.map((i) => ({
        ...(i.seatId ? { seatId: i.seatId } : { zoneId: i.zoneId! }),
        tierId: i.tierId,
        tierName: tiers.get(String(i.tierId)) ?? '',
        priceFen: i.priceFen,
        label: seatLabel(i),
      })),
      payments: payments.map((p) => ({
        id: String(p.id),
        transactionId: p.transactionId,
        amountFen: p.amountFen,
        refundedFen: p.refundedFen,
        status: PAYMENT_STATUS[p.status] ?? String(p.status),
        successTime: p.successTime ? p.successTime.toISOString() : null,
      })),
      tickets: tickets.map((t) => ({
        ticketNo: t.ticketNo,
        status: TICKET_STATUS[t.status] ?? String(t.status),
        seatLabel: seatLabel(t),
        priceFen: Number(t.priceFen),
        createdAt: t.createdAt.toISOString(),
        bindings: bindings.filter((b) => b.ticketNo === t.ticketNo).map(bindingView),
      })),
      refunds: refunds.map((f) => ({
        id: String(f.id),
        outRefundNo: f.outRefundNo,
        amountFen: f.amountFen,
        feeFen: f.feeFen,
        status: REFUND_STATUS[f.status] ?? String(f.status),
        reason: f.reason ?? '',
        requestedBy: requester(f.requestedBy, admins),
        createdAt: f.createdAt.toISOString(),
        finishedAt: f.finishedAt ? f.finishedAt.toISOString() : null,
      })),
      exchanges: exchanges.map(exchangeView),
      audit,
    };
  }

  /**
   * A refund by an admin (of the whole order, or of the tickets chosen), through the buyer's
   * refund path (fee-free for admins). That path commits its own transaction, so the audit entry
   * follows it in one of its own.
   */
  async refund(
    refunds: RefundPath,
    who: Actor,
    orderNo: string,
    body: { reason: string; ticketIds?: string[] | undefined },
    now: Date,
  ): Promise<AdminOrderDetail> {
    const { reason, ticketIds } = body;
    const r = await repo.findOrderRow(this.db, orderNo);
    if (!r) throw appError('NOT_FOUND', undefined, '订单不存在');
    const by = { kind: 'admin' as const, id: who.adminId };
    await refunds.refundOrder({
      orderId: String(r.id),
      by,
      reason,
      now,
      ...(ticketIds ? { ticketIds } : {}),
    });
    const after = await this.detail(orderNo);
    await recordAudit(
      this.db,
      {
        actor: who,
        action: 'order.refund',
        entityType: 'order',
        entityId: orderNo,
        before: { status: orderRowView(r).status, amountFen: r.amountFen },
        after: {
          status: after.status,
          reason,
          ...(ticketIds ? { ticketIds } : {}),
          refunds: after.refunds.map((f) => ({
            outRefundNo: f.outRefundNo,
            amountFen: f.amountFen,
            status: f.status,
          })),
        },
      },
      now,
    );
    return { ...after, audit: await auditOf(this.db, 'order', orderNo) };
  }

  /** Orders matching the filter as a file; exports of buyer data are audited. */
  async export(
    who: Actor,
    f: repo.OrderFilter,
    format: 'csv' | 'xlsx',
    now: Date,
  ): Promise<{ name: string; type: string; body: string | Buffer }> {
    const page = await this.search(f, 1, EXPORT_ROWS_MAX);
    if (page.total > EXPORT_ROWS_MAX) {
      throw appError(
        'VALIDATION_FAILED',
        { total: page.total },
        `一次最多导出 ${EXPORT_ROWS_MAX} 条，请缩小查询范围`,
      );
    }
    await recordAudit(
      this.db,
      {
        actor: who,
        action: 'order.export',
        entityType: 'order',
        entityId: '*',
        after: { filter: f, format, rows: page.items.length },
      },
      now,
    );
    const stamp = now.toISOString().slice(0, 16).replace(/[-:T]/g, '');
    if (format === 'csv')
      return { name: `订单-${stamp}.csv`, type: 'text/csv; charset=utf-8', body: ordersCsv(page.items) };
    return {
      name: `订单-${stamp}.xlsx`,
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body: await ordersXlsx(page.items),
    };
  }
}
