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

const PAY_FIELDS = ['appId', 'timeStamp', 'nonceStr', 'package', 'signType', 'paySign'] as const;

/**
 * The wx.requestPayment parameters the H5 stand-in passes (query on GET, form on POST). A
 * prepay_id beside them (the server's cashier URL carries one) must name the same prepay.
 */
function payParams(ctx: Context): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = {};
  for (const field of PAY_FIELDS) params[field] = param(ctx, field);
  const prepayId = param(ctx, 'prepay_id');
  if (prepayId !== undefined && params.package !== undefined && params.package !== `prepay_id=${prepayId}`) {
    throw new SimError(400, 'PARAM_ERROR', 'prepay_id 与 package 不一致');
  }
  return params;
}

/** The simulated WeChat Pay cashier that the H5 build opens instead of wx.requestPayment. */
export function cashierRouter(svc: Services): Router {
  const r = new Router({ prefix: '/sim/cashier' });

  const view = (order: Order, params: CashierView['params'], returnUrl?: string): CashierView => ({
    merchantName: svc.keys.merchantName,
    description: order.description,
    totalFen: order.amount.total,
    outTradeNo: order.out_trade_no,
    params,
    returnUrl,
  });

  /** Renders the page for an order that can no longer be paid; false if it still can. */
  const blocked = (ctx: Context, v: CashierView, order: Order): boolean => {
    const blocker = svc.pay.payBlocker(order);
    if (!blocker) return false;
    const paid = blocker.code === 'ORDERPAID';
    const back = v.returnUrl ? withResult(v.returnUrl, paid ? 'success' : 'closed') : undefined;
    html(ctx, paid ? 200 : 409, statusPage(paid ? 'paid' : 'closed', v, back));
    return true;
  };

  /** Checks the parameters as WeChat does before its cashier opens; a refusal ends here. */
  const open = (ctx: Context): { v: CashierView; order: Order } => {
    const returnUrl = returnUrlOf(ctx);
    ctx.state.returnUrl = returnUrl;
    const params = payParams(ctx);
    const { order } = svc.pay.authorize(params);
    return { v: view(order, params, returnUrl), order };
  };

  r.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      const text =
        err.code === 'PREPAY_NOT_FOUND' ? '订单不存在' : err.message.replace(/^requestPayment:fail /, '');
      const returnUrl = ctx.state.returnUrl as string | undefined;
      html(ctx, err.status, messagePage(text, err.code, returnUrl && withResult(returnUrl, 'fail')));
    }
  });

  r.get('/', (ctx) => {
    const { v, order } = open(ctx);
    if (blocked(ctx, v, order)) return;
    html(ctx, 200, payPage(v));
  });

  r.post('/confirm', (ctx) => {
    const { v, order } = open(ctx);
    if (blocked(ctx, v, order)) return;
    svc.pay.pay(v.params);
    if (!v.returnUrl) return html(ctx, 200, donePage('支付成功'));
    ctx.status = 303;
    ctx.redirect(withResult(v.returnUrl, 'success'));
  });

  r.post('/cancel', (ctx) => {
    const { v } = open(ctx);
    if (!v.returnUrl) return html(ctx, 200, messagePage('已取消支付'));
    ctx.status = 303;
    ctx.redirect(withResult(v.returnUrl, 'cancel'));
  });

  return r;
}
