import ExcelJS from 'exceljs';
import type { AdminOrderRow } from '@showtix/shared-types';
import { ordersCsv, ordersXlsx } from '../../src/orders/admin/export';
import { adminHarness } from '../admin/helpers';

/** Issue 12.9: export cells are formatted as what they are, and CSV cells never run as formulas. */
const row = (over: Partial<AdminOrderRow> = {}): AdminOrderRow => ({
  orderNo: 'T20261201000001',
  status: 'paid',
  amountFen: 123_456,
  quantity: 2,
  createdAt: '2026-12-01T02:00:00.000Z',
  paidAt: '2026-12-01T02:01:00.000Z',
  buyer: { userId: '7', nickname: '=HYPERLINK("http://evil.example","点我")', openidMasked: 'o***1' },
  showTitle: '+演唱会',
  sessionId: '1',
  sessionStartsAt: '2026-12-24T12:00:00.000Z',
  contactPhone: '138****8000',
  attendees: [{ name: '@张*', idNumber: '110***********002X' }],
  channel: 'miniprogram',
  ...over,
});

it('XLSX: 张数 is an integer, 金额 is money', async () => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await ordersXlsx([row()])) as never);
  const ws = wb.getWorksheet('订单')!;
  const header = ws.getRow(1).values as string[];
  const qty = ws.getRow(2).getCell(header.indexOf('张数'));
  const amount = ws.getRow(2).getCell(header.indexOf('金额(元)'));
  expect(qty.value).toBe(2);
  expect(qty.numFmt).toBe('0');
  expect(amount.value).toBe(1234.56);
  expect(amount.numFmt).toBe('#,##0.00');
});

it('CSV: cells starting with = + - @ tab or CR get a leading apostrophe', () => {
  const csv = ordersCsv([row({ orderNo: '-1+1', contactPhone: '\t138', amountFen: -500 })]);
  const line = csv.split('\r\n')[1]!;
  expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""点我"")"`);
  expect(line).toContain("'+演唱会");
  expect(line).toContain("'@张*");
  expect(line).toContain("'-1+1");
  expect(line).toContain("'\t138");
  expect(line).toContain(',-5,'); // a number stays a number
});

it('validation messages reach organisers in Chinese', async () => {
  const h = await adminHarness();
  try {
    const r = await h.as(h.root)('POST', '/api/v1/admin/shows', { title: 5 });
    expect(r.status).toBe(400);
    const messages = (r.body.error.details as { message: string }[]).map((d) => d.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m).toMatch(/[\u4e00-\u9fff]/);
  } finally {
    await h.close();
  }
});
