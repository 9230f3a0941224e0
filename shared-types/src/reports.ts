import { z } from 'zod';
import { IdSchema } from './schemas';

/**
 * Organiser reports (GET /api/v1/admin/reports/*). Money is integer fen. Days are calendar days
 * in Asia/Shanghai (Beijing time, as organisers and WeChat's bills count them); times are stored
 * and sent in UTC.
 */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD');

export const ReportQuerySchema = z
  .strictObject({
    showId: IdSchema.optional(),
    sessionId: IdSchema.optional(),
    /** First and last Beijing calendar day included (both inclusive). */
    from: day.optional(),
    to: day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '开始日期不能晚于结束日期', path: ['from'] })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000, {
    message: '日期范围最长一年',
    path: ['to'],
  });
export type ReportQueryInput = z.input<typeof ReportQuerySchema>;
export type ReportQuery = z.output<typeof ReportQuerySchema>;

export const REPORT_KINDS = ['sales', 'settlement', 'checkins'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const ReportExportSchema = z.strictObject({
  showId: IdSchema.optional(),
  sessionId: IdSchema.optional(),
  from: day.optional(),
  to: day.optional(),
  kind: z.enum(REPORT_KINDS),
  format: z.enum(['csv', 'xlsx']).default('csv'),
});
export type ReportExportInput = z.input<typeof ReportExportSchema>;

/** Check-in reports are per session: the gates and the doors-open hours belong to one night. */
export const CheckinReportQuerySchema = z.strictObject({ sessionId: IdSchema });

/**
 * How a ticket was sold. Every order today is bought in the mini-program and paid through WeChat
 * Pay (`miniprogram`); `comp` is kept apart for complimentary tickets issued without payment.
 */
export const SALES_CHANNELS = ['miniprogram', 'comp'] as const;
export type SalesChannel = (typeof SALES_CHANNELS)[number];

export interface SalesCounts {
  /** Paid orders (refunded later or not). */
  orders: number;
  /** Tickets (units) in those orders. */
  tickets: number;
  /** Money received for them, in fen. */
  grossFen: number;
}

export interface SalesDay extends SalesCounts {
  /** Beijing calendar day of the payment, YYYY-MM-DD. */
  date: string;
  /** Refunds that succeeded on requests made that day (whatever day the payment was). */
  refundedFen: number;
}

export interface SalesTier extends SalesCounts {
  sessionId: string;
  tierId: string;
  tierName: string;
  priceFen: number;
}

export interface SalesChannelRow extends SalesCounts {
  channel: SalesChannel;
}

export interface SalesSession extends SalesCounts {
  sessionId: string;
  showId: string;
  showTitle: string;
  startsAt: string;
  refundedFen: number;
}

export interface SalesReport {
  generatedAt: string;
  timeZone: 'Asia/Shanghai';
  byDay: SalesDay[];
  byTier: SalesTier[];
  byChannel: SalesChannelRow[];
  bySession: SalesSession[];
  totals: SalesCounts & { refundedFen: number };
}

export interface SettlementMoney {
  /** WeChat Pay payments received (every payment, including those later refunded). */
  payments: number;
  grossFen: number;
  /** WeChat Pay's fee: per payment line minus what it gives back per refund line (the bill's 手续费). */
  feeFen: number;
  /** Refunds that succeeded. */
  refundedFen: number;
  /** gross − refunds − fees: what the organiser is owed. */
  netFen: number;
}

export interface SettlementRow extends SettlementMoney {
  sessionId: string;
  showId: string;
  showTitle: string;
  startsAt: string;
}

export interface SettlementReport {
  generatedAt: string;
  timeZone: 'Asia/Shanghai';
  /** The WeChat Pay rate the fees were computed with, in basis points (60 = 0.60%). */
  feeRateBp: number;
  rows: SettlementRow[];
  totals: SettlementMoney;
}

export interface CheckinGateRow {
  gate: string;
  /** The scanning device, '' when the admission carried none. */
  device: string;
  count: number;
}

export interface CheckinBucket {
  /** Start of a 15-minute bucket, UTC ISO time. */
  at: string;
  count: number;
}

export interface CheckinReport {
  generatedAt: string;
  sessionId: string;
  total: number;
  byGate: CheckinGateRow[];
  /** 15-minute buckets from the first admission to the last, empty buckets included. */
  byTime: CheckinBucket[];
}
