import { fireEvent, render, screen } from '@testing-library/react';
import taro, { router } from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, serveApi } from './fake-api';
import MePage from '../../src/pages/me/index';
import OrdersPage from '../../src/pages/orders/index';
import AboutPage from '../../src/pages/about/index';

loggedInFan();

const order = (orderNo: string, status: string) => ({
  orderNo,
  status,
  sessionId: '7',
  amountFen: 100,
  expireAt: '2030-01-01T00:00:00.000Z',
  createdAt: '2026-12-01T00:00:00.000Z',
  items: [],
});

it('我的 is filled like an app: order shortcuts by status with the unpaid count, tickets, attendees, 客服, 关于', async () => {
  const sent = serveApi({
    'GET /api/v1/staff/me': ok({ shows: [] }),
    'GET /api/v1/orders?status=pending': ok({ items: [order('N1', 'pending'), order('N2', 'pending')] }),
  });
  render(<MePage />);
  await tick();
  expect(sent.map((s) => s.key)).toContain('GET /api/v1/orders?status=pending');
  expect(screen.getByTestId('me-pending-count').textContent).toBe('2');
  expect(
    ['pending', 'paid', 'ticketed', 'refunded'].map((s) => screen.getByTestId(`me-orders-${s}`).textContent),
  ).toEqual(['待支付2', '待出票', '已出票', '退款']);
  fireEvent.click(screen.getByTestId('me-orders-paid'));
  expect(taro.reLaunch).toHaveBeenLastCalledWith({ url: '/pages/orders/index?status=paid' });
  fireEvent.click(screen.getByTestId('me-orders'));
  expect(taro.reLaunch).toHaveBeenLastCalledWith({ url: '/pages/orders/index' });
  fireEvent.click(screen.getByTestId('me-tickets'));
  expect(taro.reLaunch).toHaveBeenLastCalledWith({ url: '/pages/tickets/index' });
  fireEvent.click(screen.getByTestId('me-about'));
  expect(taro.navigateTo).toHaveBeenLastCalledWith({ url: '/pages/about/index' });
  // The browser build has no WeChat 客服 chat: it says how to reach it.
  fireEvent.click(screen.getByTestId('me-service'));
  expect(taro.showModal).toHaveBeenLastCalledWith(expect.objectContaining({ title: '联系客服' }));
  // Every row and shortcut is a button for screen readers, its icons hidden.
  for (const id of ['me-orders-pending', 'me-tickets', 'me-attendees', 'me-service', 'me-about'])
    expect(screen.getByTestId(id).getAttribute('role')).toBe('button');
  expect(screen.getByTestId('me-tickets').querySelector('img')!.getAttribute('aria-hidden')).toBe('true');
});

it('我的订单 opened with a status asks the server for that status only, and its tabs switch', async () => {
  router.params = { status: 'paid' };
  const sent = serveApi({ 'GET /api/v1/orders?status=paid': ok({ items: [order('N3', 'paid')] }) });
  render(<OrdersPage />);
  await tick();
  expect(sent.filter((s) => s.key.startsWith('GET /api/v1/orders')).map((s) => s.key)).toEqual([
    'GET /api/v1/orders?status=paid',
  ]);
  const tabs = screen.getAllByTestId('orders-filter');
  expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-pressed')])).toEqual([
    ['全部', 'false'],
    ['待支付', 'false'],
    ['待出票', 'true'],
    ['已出票', 'false'],
    ['退款', 'false'],
  ]);
  expect(screen.getAllByTestId('order-card')).toHaveLength(1);
  fireEvent.click(tabs[0]!);
  expect(taro.reLaunch).toHaveBeenLastCalledWith({ url: '/pages/orders/index' });
});

it('关于与协议 lists the terms a fan agrees to', () => {
  render(<AboutPage />);
  expect(screen.getAllByTestId('about-section').map((s) => s.querySelector('span')!.textContent)).toEqual([
    '关于秀票',
    '购票协议',
    '隐私说明',
  ]);
});
