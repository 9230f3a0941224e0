import { render, screen } from '@testing-library/react';
import { router } from './stubs/taro';
import { ok, serveApi } from './fake-api';
import { SESSION, ticketedOrder, VIP_ITEM, SHOW_3 } from './fixtures';
import ShowPage from '../../src/pages/show/index';
import { loggedInFan, tick } from './fan';
import { openOrderPage } from './order-page';

/** 已取消 / 已延期 on the show page's sessions and on the order detail (issue 16). */
const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
// Every refund the fan asks for costs 50% under the tiers.
const SHOW = {
  ...SHOW_3,
  priceMinFen: 68_000,
  priceMaxFen: 188_000,
  firstStartsAt: SESSION.startsAt,
  lastStartsAt: SESSION.startsAt,
  posterUrl: null,
  description: '',
  refundRules: [{ hoursBeforeStart: 0, feePercent: 50 }],
  sessions: [SESSION],
};
const ORDER = ticketedOrder(NOW, 'N200', [VIP_ITEM]);
const CANCELLED = { ...SESSION, status: 'cancelled' as const };
const POSTPONED = {
  ...SESSION,
  startsAt: '2027-03-01T11:30:00.000Z',
  postponedFrom: SESSION.startsAt,
  fullRefundUntil: '2026-12-20T16:00:00.000Z',
};

loggedInFan(NOW);

it('a cancelled session: the order says its full refund is under way and offers no refund of its own', async () => {
  await openOrderPage(ORDER, { show: { ...SHOW, sessions: [CANCELLED] }, session: CANCELLED });
  expect(screen.getByTestId('session-change').textContent).toBe('本场次已取消全额退款处理中');
  expect(screen.queryByTestId('refund-order')).toBeNull();
});

it('a postponed session: the new date, the first one, and a free refund while the window is open', async () => {
  await openOrderPage(ORDER, { show: { ...SHOW, sessions: [POSTPONED] }, session: POSTPONED });
  const note = screen.getByTestId('session-change').textContent;
  expect(note).toContain('已延期至 2027.03.01');
  expect(note).toContain('原定 2027.01.15');
  expect(note).toContain('2026.12.21 周一 00:00 前可全额退票');
  expect(screen.getByText('当前可免费退票')).toBeTruthy();
  expect(screen.getByTestId('refund-order')).toBeTruthy();
});

it('the show page marks a cancelled session 已取消 and sells nothing', async () => {
  router.params = { id: '3' };
  serveApi({ 'GET /api/v1/shows/3': ok({ ...SHOW, sessions: [CANCELLED] }) });
  render(<ShowPage />);
  await tick();
  expect(screen.getByTestId('session-change').textContent).toBe('本场次已取消已购票将全额退款');
  expect(screen.getByTestId('buy-button').textContent).toBe('已取消');
});
