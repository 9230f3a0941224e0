/** A payment or refund line of WeChat Pay's trade bill. */
export interface BillLine {
  transactionId: string;
  outTradeNo: string;
  state: string;
  totalFen: number;
  outRefundNo: string;
  refundFen: number;
}

const fen = (yuan: string) => Math.round(Number(yuan || '0') * 100);

/**
 * Parses the bill's CSV: a header line, one line per trade with every field prefixed by a
 * backtick, then the summary. Columns are found by their Chinese names, not their positions.
 */
export function parseTradeBill(csv: string): BillLine[] {
  const lines = csv.split(/\r?\n/);
  const header = lines[0]!.split(',');
  const col = (name: string) => header.indexOf(name);
  const idx = {
    tx: col('微信订单号'),
    no: col('商户订单号'),
    state: col('交易状态'),
    total: col('订单金额'),
    refundNo: col('商户退款单号'),
    refund: col('退款金额'),
  };
  const out: BillLine[] = [];
  for (const line of lines.slice(1)) {
    if (!line.startsWith('`')) break; // the summary starts here
    const f = line.split(',').map((v) => v.replace(/^`/, ''));
    out.push({
      transactionId: f[idx.tx]!,
      outTradeNo: f[idx.no]!,
      state: f[idx.state]!,
      totalFen: fen(f[idx.total]!),
      outRefundNo: f[idx.refundNo] === '0' ? '' : (f[idx.refundNo] ?? ''),
      refundFen: fen(f[idx.refund]!),
    });
  }
  return out;
}
