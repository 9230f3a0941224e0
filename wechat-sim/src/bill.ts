import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { BillFile, Order, Refund, Store } from './store';
import { WxPayError, paramError } from './errors';
import { newToken } from './ids';
import { beijingDate, beijingDateTime } from './time';

/** The columns every layout starts with. */
const LEAD = [
  '交易时间',
  '公众账号ID',
  '商户号',
  '特约商户号',
  '设备号',
  '微信订单号',
  '商户订单号',
  '用户标识',
  '交易类型',
  '交易状态',
  '付款银行',
  '货币种类',
  '应结订单金额',
  '代金券金额',
];
const REFUND_COLUMNS = ['微信退款单号', '商户退款单号', '退款金额', '充值券退款金额', '退款类型', '退款状态'];
const GOODS = ['商品名称', '商户数据包', '手续费', '费率', '订单金额'];

/** WeChat's documented layouts (27, 20 and 29 columns); the ALL names are what merchants parse. */
export const BILL_LAYOUTS = {
  ALL: [...LEAD, ...REFUND_COLUMNS, ...GOODS, '申请退款金额', '费率备注'],
  SUCCESS: [...LEAD, ...GOODS, '费率备注'],
  REFUND: [...LEAD, '退款申请时间', '退款成功时间', ...REFUND_COLUMNS, ...GOODS, '申请退款金额', '费率备注'],
} as const;

const SUMMARY_HEADER =
  '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额';
/** WeChat's usual rate for this kind of merchant: 0.60%, fee rounded to the fen. */
const FEE_RATE = 0.006;
/** A bill's download_url is valid for 5 minutes (WeChat's documented validity). */
export const BILL_URL_TTL_MS = 5 * 60 * 1000;
export const BILL_TYPES = ['ALL', 'SUCCESS', 'REFUND'] as const;
export type BillType = (typeof BILL_TYPES)[number];

/** The refund status a bill shows (the v2 names WeChat's bills keep). */
const BILL_REFUND_STATUS: Record<Refund['status'], string> = {
  SUCCESS: 'SUCCESS',
  PROCESSING: 'PROCESSING',
  ABNORMAL: 'CHANGE',
  CLOSED: 'REFUNDCLOSE',
};

interface Row {
  /** Column name -> value; a layout picks its columns by name. */
  fields: Record<string, string>;
  settlementFen: number;
  refundFen: number;
  feeFen: number;
  orderFen: number;
  requestedRefundFen: number;
}

function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Fees are shown with 5 decimals, e.g. 0.07000. */
function feeYuan(fen: number): string {
  return `${yuan(fen)}000`;
}

/** Free text must not break the comma-separated layout (WeChat does not quote fields). */
function text(value: string | undefined): string {
  return (value ?? '').replace(/,/g, '，').replace(/[\r\n`]/g, ' ');
}

/** The columns a payment and its refunds share: the original payment's. */
function tradeFields(o: Order, state: 'SUCCESS' | 'REFUND'): Record<string, string> {
  return {
    交易时间: beijingDateTime(o.paidAt as number),
    公众账号ID: o.appid,
    商户号: o.mchid,
    特约商户号: '0',
    设备号: '',
    微信订单号: o.transaction_id as string,
    商户订单号: o.out_trade_no,
    用户标识: o.payer.openid,
    交易类型: 'JSAPI',
    交易状态: state,
    付款银行: o.bank_type ?? 'OTHERS',
    货币种类: o.amount.currency,
    代金券金额: '0.00',
    商品名称: text(o.description),
    商户数据包: text(o.attach),
    费率: '0.60%',
    费率备注: '',
  };
}

function paymentRow(o: Order): Row {
  const fee = Math.round(o.amount.total * FEE_RATE);
  const fields = {
    ...tradeFields(o, 'SUCCESS'),
    应结订单金额: yuan(o.amount.total),
    微信退款单号: '0',
    商户退款单号: '0',
    退款金额: '0.00',
    充值券退款金额: '0.00',
    退款类型: '',
    退款状态: '',
    手续费: feeYuan(fee),
    订单金额: yuan(o.amount.total),
    申请退款金额: '0.00',
  };
  return {
    fields,
    settlementFen: o.amount.total,
    refundFen: 0,
    feeFen: fee,
    orderFen: o.amount.total,
    requestedRefundFen: 0,
  };
}

/**
 * A refund as of now (bills are snapshots: WeChat does not update a refund's status once the
 * bill is out). 交易时间 stays the original payment's; the refund's own times have columns.
 */
function refundRow(r: Refund, o: Order): Row {
  const fee = -Math.round(r.refund * FEE_RATE);
  const fields = {
    ...tradeFields(o, 'REFUND'),
    应结订单金额: '0.00',
    退款申请时间: beijingDateTime(r.createdAt),
    退款成功时间: r.status === 'SUCCESS' ? beijingDateTime(r.finishedAt as number) : '',
    微信退款单号: r.refund_id,
    商户退款单号: r.out_refund_no,
    退款金额: yuan(r.refund),
    充值券退款金额: '0.00',
    退款类型: 'ORIGINAL',
    退款状态: BILL_REFUND_STATUS[r.status],
    手续费: feeYuan(fee),
    订单金额: '0.00',
    申请退款金额: yuan(r.refund),
  };
  return {
    fields,
    settlementFen: 0,
    refundFen: r.refund,
    feeFen: fee,
    orderFen: 0,
    requestedRefundFen: r.refund,
  };
}

/**
 * A day's rows: payments by their success time, refunds by the time WeChat accepted them
 * (退款受理时间), not by when they completed, as WeChat's bills date them.
 */
function rowsFor(store: Store, date: string, type: BillType): Row[] {
  const rows: Array<{ at: number; row: Row }> = [];
  if (type !== 'REFUND') {
    for (const o of store.orders.values()) {
      if (o.paidAt !== undefined && beijingDate(o.paidAt) === date)
        rows.push({ at: o.paidAt, row: paymentRow(o) });
    }
  }
  if (type !== 'SUCCESS') {
    for (const r of store.refunds.values()) {
      const o = store.orders.get(r.out_trade_no);
      if (o && beijingDate(r.createdAt) === date) rows.push({ at: r.createdAt, row: refundRow(r, o) });
    }
  }
  return rows.sort((a, b) => a.at - b.at).map((x) => x.row);
}

/** The trade bill as WeChat serves it: BOM, header, backtick-prefixed rows, summary, CRLF. */
export function renderTradeBill(rows: Row[], type: BillType = 'ALL'): string {
  const columns: readonly string[] = BILL_LAYOUTS[type];
  const sum = (k: keyof Omit<Row, 'fields'>) => rows.reduce((s, r) => s + r[k], 0);
  const tick = (fields: string[]) => fields.map((f) => `\`${f}`).join(',');
  const summary = [
    String(rows.length),
    yuan(sum('settlementFen')),
    yuan(sum('refundFen')),
    '0.00',
    feeYuan(sum('feeFen')),
    yuan(sum('orderFen')),
    yuan(sum('requestedRefundFen')),
  ];
  const lines = [
    columns.join(','),
    ...rows.map((r) => tick(columns.map((c) => r.fields[c] ?? ''))),
    SUMMARY_HEADER,
    tick(summary),
  ];
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

export interface TradeBillAnswer {
  hash_type: 'SHA1';
  hash_value: string;
  download_url: string;
}

/** The file behind a download token, or undefined once the link has expired (it is forgotten then). */
export function billFile(store: Store, token: string, ttlMs: number, now = Date.now()): BillFile | undefined {
  for (const [t, f] of store.bills) if (now - f.createdAt >= ttlMs) store.bills.delete(t);
  return store.bills.get(token);
}

/** GET /v3/bill/tradebill: builds the file now and hands out a download token valid for minutes. */
export function applyTradeBill(
  store: Store,
  query: Record<string, string | undefined>,
  origin: string,
): TradeBillAnswer {
  const date = query.bill_date;
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) {
    throw paramError('bill_date', '格式应为YYYY-MM-DD');
  }
  const type = (query.bill_type ?? 'ALL') as BillType;
  if (!BILL_TYPES.includes(type)) throw paramError('bill_type', '应为ALL、SUCCESS或REFUND');
  if (query.tar_type !== undefined && query.tar_type !== 'GZIP') throw paramError('tar_type', '只支持GZIP');
  // The simulator also serves today's bill (real WeChat only from ~10:00 the next day) so tests
  // need not wait a day; a future day or a day without trades has no statement, as in WeChat.
  const rows = date > beijingDate(Date.now()) ? [] : rowsFor(store, date, type);
  if (rows.length === 0) throw new WxPayError(400, 'NO_STATEMENT_EXIST', '账单文件不存在');
  const csv = Buffer.from(renderTradeBill(rows, type), 'utf8');
  const file: BillFile = {
    token: newToken(),
    content: query.tar_type === 'GZIP' ? gzipSync(csv) : csv,
    gzip: query.tar_type === 'GZIP',
    createdAt: Date.now(),
  };
  store.bills.set(file.token, file);
  return {
    hash_type: 'SHA1',
    // The hash is of the uncompressed bill, as WeChat documents.
    hash_value: createHash('sha1').update(csv).digest('hex'),
    download_url: `${origin}/v3/billdownload/file?token=${file.token}`,
  };
}
