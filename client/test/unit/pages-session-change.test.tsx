import { act, render, screen } from '@testing-library/react';
import { resetTaro, router } from './stubs/taro';
import taro from './stubs/taro';
import { ok, serveApi } from './fake-api';
import { SESSION } from './fixtures';
import OrderPage from '../../src/pages/order/index';
import ShowPage from '../../src/pages/show/index';
import { clearSessionContext } from '../../src/services/context';

/** 已取消 / 已延期 on the show page's sessions and on the order detail (issue 16). */
const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
// Every refund the fan asks for costs 50% under the tiers.
const SHOW = {
  id: '3',
  title: '星河巡回演唱会',
  city: '上海',
  venueName: '梅赛德斯',
  priceMinFen: 68_000,
  priceMaxFen: 188_000,
  firstStartsAt: SESSION.startsAt,
  lastStartsAt: SESSION.startsAt,
  posterUrl: null,
  description: '',
  venue: { id: '1', name: '梅赛德斯-奔驰文化中心', city: '上海', address: '世博大道1200号' },
  refundRules: [{ hoursBeforeStart: 0, feePercent: 50 }],
  sessions: [SESSION],
};
const ORDER = {
  orderNo: 'N200',
  status: 'ticketed',
  sessionId: '7',
  amountFen: 188_000,
  expireAt: new Date(NOW).toISOString(),
  createdAt: new Date(NOW).toISOString(),
  items: [{ seatId: '11', tierId: 't1', priceFen: 188_000, section: 'A区', row: '1', number: '1' }],
};
const CANCELLED = { ...SESSION, status: 'cancelled' as const };
const POSTPONED = {
  ...SESSION,
  startsAt: '2027-03-01T11:30:00.000Z',
  postponedFrom: SESSION.startsAt,
  fullRefundUntil: '2026-12-20T16:00:00.000Z',
};

const flush = () => act(() => jest.advanceTimersByTimeAsync(0));

beforeEach(() => {
  resetTaro();
  clearSessionContext();
  jest.useFakeTimers({ now: NOW });
  taro.setStorageSync('showtix.token', 'tok');
});
afterEach(() => jest.useRealTimers());

it('a cancelled session: the order says its full refund is under way and offers no refund of its own', async () => {
  router.params = { orderNo: 'N200' };
  serveApi({
    'GET /api/v1/orders/N200': ok(ORDER),
    'GET /api/v1/sessions/7': ok(CANCELLED),
    'GET /api/v1/shows/3': ok({ ...SHOW, sessions: [CANCELLED] }),
  });
  render(<OrderPage />);
  await flush();
  expect(screen.getByTestId('session-change').textContent).toBe('本场次已取消全额退款处理中');
  expect(screen.queryByTestId('refund-order')).toBeNull();
});

it('a postponed session: the new date, the first one, and a free refund while the window is open', async () => {
  router.params = { orderNo: 'N200' };
  serveApi({
    'GET /api/v1/orders/N200': ok(ORDER),
    'GET /api/v1/sessions/7': ok(POSTPONED),
    'GET /api/v1/shows/3': ok({ ...SHOW, sessions: [POSTPONED] }),
  });
  render(<OrderPage />);
  await flush();
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
  await flush();
  expect(screen.getByTestId('session-change').textContent).toBe('本场次已取消已购票将全额退款');
  expect(screen.getByTestId('buy-button').textContent).toBe('已取消');
});
