import ExcelJS from 'exceljs';
import type { AdminOrderRow } from '@showtix/shared-types';
import { toCsv } from '../../catalog/venues/csv';

const STATUS_ZH: Record<string, string> = {
  pending: '待支付',
  paid: '已支付',
  ticketed: '已出票',
  cancelled: '已取消',
  refunded: '已退款',
};

interface Column {
  header: string;
  width: number;
  value: (o: AdminOrderRow) => string | number;
  /** Excel number format of the column's cells (counts as integers, yuan as money). */
  numFmt?: string;
}

const COLUMNS: Column[] = [
  { header: '订单号', width: 24, value: (o) => o.orderNo },
  { header: '状态', width: 8, value: (o) => STATUS_ZH[o.status] ?? o.status },
  { header: '演出', width: 30, value: (o) => o.showTitle },
  { header: '场次时间', width: 20, value: (o) => beijing(o.sessionStartsAt) },
  { header: '买家ID', width: 10, value: (o) => o.buyer.userId },
  { header: '买家昵称', width: 14, value: (o) => o.buyer.nickname ?? '' },
  { header: '联系手机(已脱敏)', width: 16, value: (o) => o.contactPhone ?? '' },
  { header: '渠道', width: 8, value: (o) => (o.channel === 'comp' ? '赠票' : '小程序') },
  { header: '张数', width: 6, value: (o) => o.quantity, numFmt: '0' },
  { header: '金额(元)', width: 12, value: (o) => o.amountFen / 100, numFmt: '#,##0.00' },
  { header: '下单时间', width: 20, value: (o) => beijing(o.createdAt) },
  { header: '支付时间', width: 20, value: (o) => (o.paidAt ? beijing(o.paidAt) : '') },
  {
    header: '观演人(已脱敏)',
    width: 36,
    value: (o) => o.attendees.map((a) => `${a.name} ${a.idNumber}`).join('; '),
  },
];

/** Times in exports are Beijing time, as organisers read them. */
export function beijing(iso: string): string {
  return new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

export function ordersCsv(rows: AdminOrderRow[]): string {
  return toCsv([COLUMNS.map((c) => c.header), ...rows.map((o) => COLUMNS.map((c) => c.value(o)))]);
}

export async function ordersXlsx(rows: AdminOrderRow[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'showtix';
  const ws = wb.addWorksheet('订单');
  ws.columns = COLUMNS.map((c, i) => ({ header: c.header, key: String(i), width: c.width }));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  for (const o of rows) ws.addRow(COLUMNS.map((c) => c.value(o)));
  COLUMNS.forEach((c, i) => {
    if (c.numFmt) ws.getColumn(i + 1).numFmt = c.numFmt;
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
