import type {
  CheckinBucket,
  CheckinReport,
  ReportKind,
  ReportQuery,
  SalesChannelRow,
  SalesReport,
  SettlementMoney,
  SettlementReport,
} from '@showtix/shared-types';
import type { Db } from '../db/pool';
import { appError } from '../errors';
import { recordAudit } from '../audit/repo';
import type { Actor } from '../audit/actor';
import { reportFile, type ReportFile } from './export';
import * as repo from './repo';

const DAY_MS = 86_400_000;
const QUARTER_MS = 15 * 60_000;
/** Gaps are filled up to two days of quarters; a longer span lists only the quarters with admissions. */
const MAX_BUCKETS = 192;

/** Beijing calendar days [from, to] as UTC instants: a Beijing day starts at 16:00 UTC the day before. */
export function scopeOf(q: ReportQuery): repo.ReportScope {
  return {
    showId: q.showId,
    sessionId: q.sessionId,
    start: q.from ? new Date(Date.parse(`${q.from}T00:00:00+08:00`)) : undefined,
    end: q.to ? new Date(Date.parse(`${q.to}T00:00:00+08:00`) + DAY_MS) : undefined,
  };
}

/**
 * The organiser's reports, read from MySQL (the replica when fresh: a report may be a second
 * stale). Sales count orders whose payment went to them; settlement counts money as WeChat Pay's
 * bill does (every payment taken, every refund paid out, the fee per line), so its totals for a
 * day are the totals of that day's reconciled bill.
 */
export class ReportService {
  constructor(
    private readonly db: Db,
    private readonly readDb: Db,
    private readonly feeRateBp: number,
  ) {}

  async sales(q: ReportQuery, now: Date): Promise<SalesReport> {
    const scope = scopeOf(q);
    const [days, refunds, byTier, sessions, comp] = await Promise.all([
      repo.salesByDay(this.readDb, scope),
      repo.salesRefunds(this.readDb, scope),
      repo.salesByTier(this.readDb, scope),
      repo.salesBySession(this.readDb, scope),
      repo.compIssued(this.readDb, scope),
    ]);
    const refundedOn = totalsBy(refunds, (r) => r.date);
    const dates = [...new Set([...days.map((d) => d.date), ...refundedOn.keys()])].sort();
    const byDate = new Map(days.map((d) => [d.date, d]));
    const byDay = dates.map((date) => ({
      date,
      orders: byDate.get(date)?.orders ?? 0,
      tickets: byDate.get(date)?.tickets ?? 0,
      grossFen: byDate.get(date)?.grossFen ?? 0,
      refundedFen: refundedOn.get(date) ?? 0,
    }));
    const sum = (k: 'orders' | 'tickets' | 'grossFen') => days.reduce((n, d) => n + d[k], 0);
    const totals = { orders: sum('orders'), tickets: sum('tickets'), grossFen: sum('grossFen') };
    // Sales are bought in the mini-program and paid through WeChat Pay; complimentary tickets
    // (comp/) are counted apart, with no gross: they are not in the totals, days, tiers or sessions.
    const byChannel: SalesChannelRow[] = totals.orders ? [{ channel: 'miniprogram', ...totals }] : [];
    if (comp.orders) byChannel.push({ channel: 'comp', ...comp, grossFen: 0 });
    return {
      generatedAt: now.toISOString(),
      timeZone: 'Asia/Shanghai',
      byDay,
      byTier,
      byChannel,
      bySession: sessions,
      totals: { ...totals, refundedFen: byDay.reduce((n, d) => n + d.refundedFen, 0) },
    };
  }

  async settlement(q: ReportQuery, now: Date): Promise<SettlementReport> {
    const money = await repo.moneyBySession(this.readDb, scopeOf(q), this.feeRateBp);
    const rows = money.map((m) => {
      const feeFen = m.payFeeFen - m.refundFeeFen;
      return {
        sessionId: m.sessionId,
        showId: m.showId,
        showTitle: m.showTitle,
        startsAt: m.startsAt.toISOString(),
        payments: m.payments,
        grossFen: m.grossFen,
        feeFen,
        refundedFen: m.refundedFen,
        netFen: m.grossFen - m.refundedFen - feeFen,
      };
    });
    const totals: SettlementMoney = { payments: 0, grossFen: 0, feeFen: 0, refundedFen: 0, netFen: 0 };
    for (const r of rows) for (const k of Object.keys(totals) as (keyof SettlementMoney)[]) totals[k] += r[k];
    return {
      generatedAt: now.toISOString(),
      timeZone: 'Asia/Shanghai',
      feeRateBp: this.feeRateBp,
      rows,
      totals,
    };
  }

  async checkins(sessionId: string, now: Date): Promise<CheckinReport> {
    if (!(await repo.sessionExists(this.readDb, sessionId)))
      throw appError('NOT_FOUND', undefined, '场次不存在');
    const [byGate, quarters] = await Promise.all([
      repo.checkinsByGate(this.readDb, sessionId),
      repo.checkinsByQuarter(this.readDb, sessionId),
    ]);
    return {
      generatedAt: now.toISOString(),
      sessionId,
      total: byGate.reduce((n, g) => n + g.count, 0),
      byGate,
      byTime: buckets(quarters),
    };
  }

  /** A report as a file; the export is audited like the order export (money leaves the page). */
  async export(
    who: Actor,
    kind: ReportKind,
    q: ReportQuery,
    format: 'csv' | 'xlsx',
    now: Date,
  ): Promise<ReportFile> {
    if (kind === 'checkins' && !q.sessionId)
      throw appError('VALIDATION_FAILED', undefined, '入场报表请选择场次');
    const data =
      kind === 'sales'
        ? { kind, report: await this.sales(q, now) }
        : kind === 'settlement'
          ? { kind, report: await this.settlement(q, now) }
          : { kind, report: await this.checkins(q.sessionId!, now) };
    await recordAudit(
      this.db,
      { actor: who, action: 'report.export', entityType: 'report', entityId: kind, after: { ...q, format } },
      now,
    );
    return reportFile(data, format, now);
  }
}

function totalsBy<T extends { fen: number }>(rows: T[], key: (r: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0) + r.fen);
  return out;
}

/** Every quarter hour from the first admission to the last, empty ones included (a gap shows). */
function buckets(quarters: Map<number, number>): CheckinBucket[] {
  const keys = [...quarters.keys()].sort((a, b) => a - b);
  if (!keys.length) return [];
  const first = keys[0]!;
  const last = keys[keys.length - 1]!;
  const span =
    last - first < MAX_BUCKETS ? Array.from({ length: last - first + 1 }, (_, i) => first + i) : keys;
  return span.map((q) => ({ at: new Date(q * QUARTER_MS).toISOString(), count: quarters.get(q) ?? 0 }));
}
