// 订单详情 under jsdom, opened by a logged-in fan (see fan.ts): the fake API answers the order,
// its session and its show, and the page has rendered and settled.
import { render } from '@testing-library/react';
import { router } from './stubs/taro';
import { ok, serveApi, type Route, type Sent } from './fake-api';
import { SESSION } from './fixtures';
import { tick } from './fan';
import OrderPage from '../../src/pages/order/index';

interface Opened {
  /** GET /api/v1/shows/3; none: the request is answered 404. */
  show?: unknown;
  session?: { id: string };
  /** More routes of the fake API, or ones that replace the order's, session's or show's. */
  routes?: Record<string, Route>;
}

/** Opens the order page of `order`; returns the requests the page sends, as serveApi does. */
export async function openOrderPage<O extends { orderNo: string }>(
  order: O,
  opened: Opened = {},
): Promise<Sent[]> {
  const session = opened.session ?? SESSION;
  const routes: Record<string, Route> = {
    [`GET /api/v1/orders/${order.orderNo}`]: ok(order),
    [`GET /api/v1/sessions/${session.id}`]: ok(session),
  };
  if (opened.show) routes['GET /api/v1/shows/3'] = ok(opened.show);
  router.params = { orderNo: order.orderNo };
  const sent = serveApi({ ...routes, ...opened.routes });
  render(<OrderPage />);
  await tick();
  return sent;
}
