import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../services';
import type { Order } from '../store';
import { SimError } from '../errors';
import { CashierView, donePage, messagePage, payPage, statusPage, withResult } from '../cashier-page';

function param(ctx: Context, name: string): string | undefined {
  const b = ctx.request.body as Record<string, unknown> | undefined;
  const fromBody = b && typeof b[name] === 'string' ? (b[name] as string) : undefined;
  const fromQuery = ctx.query[name];
  return fromBody ?? (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery);
}

/** Only absolute http(s) URLs: the page must not become a javascript: or relative redirector. */
function returnUrlOf(ctx: Context): string | undefined {
  const value = param(ctx, 'return_url');
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // fall through
  }
  throw new SimError(400, 'BAD_RETURN_URL', 'return_url must be an absolute http(s) URL');
}

function html(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

/** The simulated WeChat Pay cashier that the H5 build opens instead of wx.requestPayment. */
export function cashierRouter(svc: Services): Router {
  const r = new Router({ prefix: '/sim/cashier' });

  const view = (order: Order, returnUrl?: string): CashierView => ({
    merchantName: svc.keys.merchantName,
    description: order.description,
    totalFen: order.amount.total,
    outTradeNo: order.out_trade_no,
    prepayId: order.prepay_id,
    returnUrl,
  });

  /** Renders the page for an order that can no longer be paid; false if it still can. */
  const blocked = (ctx: Context, order: Order, returnUrl?: string): boolean => {
    const blocker = svc.pay.payBlocker(order);
    if (!blocker) return false;
    const paid = blocker.code === 'ORDERPAID';
    const back = returnUrl ? withResult(returnUrl, paid ? 'success' : 'closed') : undefined;
    html(ctx, paid ? 200 : 409, statusPage(paid ? 'paid' : 'closed', view(order), back));
    return true;
  };

  r.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      html(ctx, err.status, messagePage(err.code === 'PREPAY_NOT_FOUND' ? '订单不存在' : err.message));
    }
  });

  r.get('/', (ctx) => {
    const returnUrl = returnUrlOf(ctx);
    const order = svc.pay.orderByPrepay(param(ctx, 'prepay_id'));
    if (blocked(ctx, order, returnUrl)) return;
    html(ctx, 200, payPage(view(order, returnUrl)));
  });

  r.post('/confirm', (ctx) => {
    const returnUrl = returnUrlOf(ctx);
    const order = svc.pay.orderByPrepay(param(ctx, 'prepay_id'));
    if (blocked(ctx, order, returnUrl)) return;
    svc.pay.pay(order.prepay_id);
    if (!returnUrl) return html(ctx, 200, donePage('支付成功'));
    ctx.status = 303;
    ctx.redirect(withResult(returnUrl, 'success'));
  });

  r.post('/cancel', (ctx) => {
    const returnUrl = returnUrlOf(ctx);
    svc.pay.orderByPrepay(param(ctx, 'prepay_id'));
    if (!returnUrl) return html(ctx, 200, messagePage('已取消支付'));
    ctx.status = 303;
    ctx.redirect(withResult(returnUrl, 'cancel'));
  });

  return r;
}
