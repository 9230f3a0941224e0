import { parse } from 'csv-parse/sync';

/** A payment line of WeChat Pay's trade bill (交易状态 SUCCESS). */
export interface BillPayment {
  kind: 'payment';
  transactionId: string;
  outTradeNo: string;
  totalFen: number;
  currency: string;
}

/** A refund line (交易状态 REFUND): it names the payment it refunds by transaction id. */
export interface BillRefund {
  kind: 'refund';
  transactionId: string;
  outTradeNo: string;
  refundId: string;
  outRefundNo: string;
  refundFen: number;
  /** 退款状态: SUCCESS, PROCESSING, CHANGE (abnormal) or CLOSED. */
  refundStatus: string;
  currency: string;
}

export type BillLine = BillPayment | BillRefund;

const fen = (yuan: string | undefined) => Math.round(Number(yuan || '0') * 100);

/**
 * Parses the ALL trade bill (a CSV file: BOM, a header, one line per trade with every field
 * prefixed by a backtick, then a summary header and line). Fields are found by their Chinese
 * column names, never by position: WeChat's layouts differ by bill type and have changed, and
 * the summary is told apart by its header, not its shape.
 */
export function parseTradeBill(csv: string): BillLine[] {
  const rows: string[][] = parse(csv.replace(/^\uFEFF/, ''), {
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
  });
  const header = rows[0] ?? [];
  const at = (name: string) => header.indexOf(name);
  const idx = {
    tx: at('微信订单号'),
    no: at('商户订单号'),
    state: at('交易状态'),
    currency: at('货币种类'),
    total: at('订单金额'),
    settled: at('应结订单金额'),
    refundId: at('微信退款单号'),
    refundNo: at('商户退款单号'),
    refund: at('退款金额'),
    requested: at('申请退款金额'),
    refundStatus: at('退款状态'),
  };
  if (idx.tx < 0 || idx.no < 0 || idx.state < 0) throw new Error('trade bill: unknown header');
  const out: BillLine[] = [];
  for (const raw of rows.slice(1)) {
    if (!raw[0]?.startsWith('`')) break; // the summary header: trades end here
    const f = raw.map((v) => v.replace(/^`/, ''));
    const get = (i: number) => (i >= 0 ? (f[i] ?? '') : '');
    const base = {
      transactionId: get(idx.tx),
      outTradeNo: get(idx.no),
      currency: get(idx.currency) || 'CNY',
    };
    if (get(idx.state) === 'REFUND') {
      out.push({
        kind: 'refund',
        ...base,
        refundId: get(idx.refundId),
        outRefundNo: get(idx.refundNo),
        refundFen: fen(get(idx.refund) || get(idx.requested)),
        refundStatus: get(idx.refundStatus) || 'SUCCESS',
      });
    } else if (get(idx.state) === 'SUCCESS') {
      out.push({ kind: 'payment', ...base, totalFen: fen(get(idx.total) || get(idx.settled)) });
    }
  }
  return out;
}
