import ExcelJS from 'exceljs';
import type { CheckinReport, SalesReport, SettlementReport } from '@showtix/shared-types';
import { beijing } from '../orders/admin/export';
import { toCsv } from '../catalog/venues/csv';

export interface ReportFile {
  name: string;
  type: string;
  body: string | Buffer;
}

type Cell = string | number;
const YUAN = '#,##0.00';
const COUNT = '0';

interface Column {
  header: string;
  width: number;
  numFmt?: string;
}

/** One table of a report: a CSV section, an XLSX sheet. */
interface Table {
  title: string;
  columns: Column[];
  rows: Cell[][];
}

const col = (header: string, width: number, numFmt?: string): Column => ({ header, width, numFmt });
const yuan = (fen: number) => fen / 100;
const CHANNEL_ZH: Record<string, string> = { miniprogram: '小程序(微信支付)', comp: '赠票' };

function salesTables(r: SalesReport): Table[] {
  const money = [col('订单数', 8, COUNT), col('票数', 8, COUNT), col('销售额(元)', 14, YUAN)];
  const m = (x: { orders: number; tickets: number; grossFen: number }) => [
    x.orders,
    x.tickets,
    yuan(x.grossFen),
  ];
  return [
    {
      title: '按日(北京时间)',
      columns: [col('日期', 12), ...money, col('退款(元)', 14, YUAN)],
      rows: r.byDay.map((d) => [d.date, ...m(d), yuan(d.refundedFen)]),
    },
    {
      title: '按场次',
      columns: [col('演出', 30), col('场次时间', 20), ...money, col('退款(元)', 14, YUAN)],
      rows: r.bySession.map((s) => [s.showTitle, beijing(s.startsAt), ...m(s), yuan(s.refundedFen)]),
    },
    {
      title: '按票档',
      columns: [col('场次ID', 10), col('票档', 14), col('票价(元)', 12, YUAN), ...money],
      rows: r.byTier.map((t) => [t.sessionId, t.tierName, yuan(t.priceFen), ...m(t)]),
    },
    {
      title: '按渠道',
      columns: [col('渠道', 18), ...money],
      rows: r.byChannel.map((c) => [CHANNEL_ZH[c.channel] ?? c.channel, ...m(c)]),
    },
  ];
}

function settlementTables(r: SettlementReport): Table[] {
  const money = (x: SettlementReport['totals']) => [
    x.payments,
    yuan(x.grossFen),
    yuan(x.feeFen),
    yuan(x.refundedFen),
    yuan(x.netFen),
  ];
  return [
    {
      title: `结算(微信支付费率 ${(r.feeRateBp / 100).toFixed(2)}%)`,
      columns: [
        col('演出', 30),
        col('场次时间', 20),
        col('支付笔数', 10, COUNT),
        col('实收(元)', 14, YUAN),
        col('手续费(元)', 12, YUAN),
        col('退款(元)', 14, YUAN),
        col('净额(元)', 14, YUAN),
      ],
      rows: [
        ...r.rows.map((s) => [s.showTitle, beijing(s.startsAt), ...money(s)]),
        ['合计', '', ...money(r.totals)],
      ],
    },
  ];
}

function checkinTables(r: CheckinReport): Table[] {
  return [
    {
      title: '按入口',
      columns: [col('入口', 14), col('设备', 24), col('入场人数', 10, COUNT)],
      rows: r.byGate.map((g) => [g.gate, g.device, g.count]),
    },
    {
      title: '按时间(每15分钟,北京时间)',
      columns: [col('开始时间', 20), col('入场人数', 10, COUNT)],
      rows: r.byTime.map((b) => [beijing(b.at), b.count]),
    },
  ];
}

export type ReportData =
  | { kind: 'sales'; report: SalesReport }
  | { kind: 'settlement'; report: SettlementReport }
  | { kind: 'checkins'; report: CheckinReport };

const NAME_ZH = { sales: '销售报表', settlement: '结算报表', checkins: '入场报表' } as const;

function tablesOf(d: ReportData): Table[] {
  if (d.kind === 'sales') return salesTables(d.report);
  if (d.kind === 'settlement') return settlementTables(d.report);
  return checkinTables(d.report);
}

/** CSV: the tables one after another, each under its title, a blank line between them. */
function csvOf(tables: Table[]): string {
  const rows: Cell[][] = [];
  tables.forEach((t, i) => {
    if (i) rows.push(['']);
    rows.push(
      [t.title],
      t.columns.map((c) => c.header),
      ...t.rows,
    );
  });
  return toCsv(rows);
}

/** XLSX: one sheet per table, header bold and frozen, money as yuan with two decimals. */
async function xlsxOf(tables: Table[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'showtix';
  for (const t of tables) {
    const ws = wb.addWorksheet(t.title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31));
    ws.columns = t.columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width }));
    ws.getRow(1).font = { bold: true };
    ws.views = [{ state: 'frozen', ySplit: 1 }];
    for (const r of t.rows) ws.addRow(r);
    t.columns.forEach((c, i) => {
      if (c.numFmt) ws.getColumn(i + 1).numFmt = c.numFmt;
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function reportFile(d: ReportData, format: 'csv' | 'xlsx', now: Date): Promise<ReportFile> {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:T]/g, '');
  const tables = tablesOf(d);
  if (format === 'csv')
    return { name: `${NAME_ZH[d.kind]}-${stamp}.csv`, type: 'text/csv; charset=utf-8', body: csvOf(tables) };
  return {
    name: `${NAME_ZH[d.kind]}-${stamp}.xlsx`,
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: await xlsxOf(tables),
  };
}
