import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Services } from '../services';
import type { RawNotificationOptions } from '../raw-notify';
import { SimError } from '../errors';
import { FaultError, Faults, defaultFaults, mergeFaults } from '../faults';
import { stateDump } from '../views';

function body(ctx: Context): Record<string, unknown> {
  const b = ctx.request.body;
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

function stripPrepayId(b: Record<string, unknown>): Record<string, unknown> {
  const { prepayId: _a, prepay_id: _b, ...rest } = b;
  return rest;
}

/** Replaces the fault switches; held notifications are not stranded once outOfOrder goes off. */
export function applyFaults(svc: Services, next: Faults): Faults {
  svc.store.faults = next;
  if (next.outOfOrder === 0 && svc.notifier.heldCount() > 0) void svc.notifier.flush();
  return next;
}

/** Errors of the simulator's own endpoints: {code, message} with a 4xx. */
export async function simErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (err instanceof SimError) {
      ctx.status = err.status;
      ctx.body = { ok: false, code: err.code, message: err.message };
    } else if (err instanceof FaultError) {
      ctx.status = 400;
      ctx.body = { ok: false, code: 'BAD_FAULT', message: err.message };
    } else {
      throw err;
    }
  }
}

/** Simulator-only endpoints: the user's side (login, pay), faults and inspection. */
export function simRouter(svc: Services): Router {
  const r = new Router({ prefix: '/sim' });
  r.use(simErrors);

  r.get('/health', (ctx) => {
    ctx.body = { ok: true };
  });

  r.post('/login', (ctx) => {
    const { openid, unionid } = body(ctx);
    if (openid !== undefined && (typeof openid !== 'string' || openid === '')) {
      throw new SimError(400, 'BAD_OPENID', 'openid must be a non-empty string');
    }
    ctx.body = svc.login.issueCode(openid, typeof unionid === 'string' ? unionid : undefined);
  });

  // The body is what the mini-program passes to wx.requestPayment (+ appId, see RequestPaymentParams),
  // checked as WeChat checks it. The public contract's `{prepayId}` alone stays: the user's
  // confirmation in the cashier. A prepayId beside the parameters must name the same prepay.
  r.post('/pay', (ctx) => {
    const b = body(ctx);
    const prepayId = b.prepayId ?? b.prepay_id;
    if (prepayId !== undefined && b.package === undefined && b.paySign === undefined) {
      ctx.body = svc.pay.payByPrepay(prepayId);
      return;
    }
    if (prepayId !== undefined && b.package !== `prepay_id=${String(prepayId)}`) {
      throw new SimError(400, 'PARAM_ERROR', 'requestPayment:fail prepayId 与 package 不一致');
    }
    ctx.body = svc.pay.pay(stripPrepayId(b));
  });

  r.get('/messages', (ctx) => {
    ctx.body = { items: svc.store.messages };
  });

  // The fan answers wx.requestSubscribeMessage (the H5 stand-in calls this): consent per template.
  r.post('/subscribe', (ctx) => {
    const { openid, tmplIds, answers } = body(ctx);
    ctx.body = svc.subscribe.request(openid, tmplIds, answers);
  });

  r.get('/subscriptions', (ctx) => {
    const openid = typeof ctx.query.openid === 'string' ? ctx.query.openid : '';
    const mine = svc.store.consents.get(openid) ?? new Map<string, number>();
    ctx.body = { openid, remaining: Object.fromEntries(mine) };
  });

  r.get('/notifications', (ctx) => {
    ctx.body = { items: svc.store.notifications };
  });

  r.post('/notifications/flush', async (ctx) => {
    await svc.notifier.flush();
    ctx.body = { ok: true };
  });

  r.post('/notify', async (ctx) => {
    ctx.body = await svc.raw.send(body(ctx) as RawNotificationOptions);
  });

  r.get('/faults', (ctx) => {
    ctx.body = svc.store.faults;
  });

  r.post('/faults', (ctx) => {
    ctx.body = applyFaults(svc, mergeFaults(svc.store.faults, ctx.request.body));
  });

  r.delete('/faults', (ctx) => {
    ctx.body = applyFaults(svc, defaultFaults());
  });

  r.get('/state', (ctx) => {
    ctx.body = stateDump(svc.store);
  });

  return r;
}
