import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { SalesReport, SettlementReport } from '@showtix/shared-types';
import { ReportsPage } from '../../src/pages/reports/ReportsPage';
import { reply, renderInApp } from './harness';

// ECharts draws on a canvas jsdom does not have: the chart shows the data it was given instead.
vi.mock('../../src/components/EChart', () => ({
  EChart: ({ option, testId }: { option: { series: { data: unknown[] }[] }; testId?: string }) => (
    <div data-testid={testId}>{JSON.stringify(option.series.map((s) => s.data))}</div>
  ),
}));

const session = {
  sessionId: '11',
  showId: '5',
  showTitle: '星空演唱会',
  startsAt: '2026-12-20T12:00:00.000Z',
};
const sales: SalesReport = {
  generatedAt: '2026-12-02T00:00:00.000Z',
  timeZone: 'Asia/Shanghai',
  byDay: [
    { date: '2026-12-01', orders: 2, tickets: 3, grossFen: 444_000, refundedFen: 54_400 },
    { date: '2026-12-02', orders: 1, tickets: 1, grossFen: 68_000, refundedFen: 0 },
  ],
  byTier: [
    {
      sessionId: '11',
      tierId: '1',
      tierName: 'VIP',
      priceFen: 188_000,
      orders: 1,
      tickets: 2,
      grossFen: 376_000,
    },
    {
      sessionId: '11',
      tierId: '2',
      tierName: '看台',
      priceFen: 68_000,
      orders: 2,
      tickets: 2,
      grossFen: 136_000,
    },
  ],
  byChannel: [{ channel: 'miniprogram', orders: 3, tickets: 4, grossFen: 512_000 }],
  bySession: [{ ...session, orders: 3, tickets: 4, grossFen: 512_000, refundedFen: 54_400 }],
  totals: { orders: 3, tickets: 4, grossFen: 512_000, refundedFen: 54_400 },
};
const settlement: SettlementReport = {
  generatedAt: '2026-12-02T00:00:00.000Z',
  timeZone: 'Asia/Shanghai',
  feeRateBp: 60,
  rows: [{ ...session, payments: 3, grossFen: 512_000, feeFen: 2_746, refundedFen: 54_400, netFen: 454_854 }],
  totals: { payments: 3, grossFen: 512_000, feeFen: 2_746, refundedFen: 54_400, netFen: 454_854 },
};

describe('报表 page', () => {
  it(
    'charts sales, shows the settlement with its fees, and exports the open tab',
    { timeout: 120_000 },
    async () => {
      const urls: string[] = [];
      vi.spyOn(globalThis, 'fetch').mockImplementation((url) => {
        const u = String(url);
        urls.push(u);
        if (u.includes('/reports/sales')) return reply(sales);
        if (u.includes('/reports/settlement')) return reply(settlement);
        if (u.includes('/reports/export'))
          return reply('\uFEFF结算', 200, {
            'content-type': 'text/csv',
            'content-disposition': "attachment; filename*=UTF-8''%E7%BB%93%E7%AE%97.xlsx",
          });
        return reply({ items: [] });
      });
      URL.createObjectURL = vi.fn(() => 'blob:report');
      URL.revokeObjectURL = vi.fn();
      const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
      renderInApp(<ReportsPage />);
      expect((await screen.findAllByText('¥5,120', {}, { timeout: 20_000 })).length).toBeGreaterThan(0);
      // The day chart is in yuan: gross and refunds per Beijing day.
      expect(screen.getByTestId('chart-sales-day').textContent).toBe('[[4440,680],[544,0]]');
      expect(screen.getByTestId('chart-sales-tier').textContent).toBe('[[2,2]]');
      expect(screen.getByText('小程序(微信支付)')).toBeTruthy();

      fireEvent.click(screen.getByRole('tab', { name: '结算' }));
      expect(await screen.findByTestId('settlement-net', {}, { timeout: 20_000 })).toBeTruthy();
      expect(screen.getByTestId('settlement-net').textContent).toBe('¥4,548.54');
      expect(screen.getByText(/费率 0\.60%/)).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: /导出 XLSX/ }));
      await waitFor(() => expect(urls.some((u) => u.includes('/reports/export'))).toBe(true), {
        timeout: 20_000,
      });
      const exported = urls.find((u) => u.includes('/reports/export'))!;
      expect(exported).toContain('kind=settlement');
      expect(exported).toContain('format=xlsx');
      await waitFor(() => expect(saved).toHaveBeenCalled(), { timeout: 20_000 });

      fireEvent.click(screen.getByRole('tab', { name: '入场' }));
      expect(await screen.findByText('入场报表请先选择演出和场次', {}, { timeout: 20_000 })).toBeTruthy();
      const buttons = screen.getAllByRole('button').filter((b) => /导出/.test(b.textContent ?? ''));
      expect(buttons.every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    },
  );
});
