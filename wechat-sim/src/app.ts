import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import type { Services } from './services';
import { merchantApi } from './routes/merchant-auth';
import { merchantRouter } from './routes/merchant';
import { wechatRouter } from './routes/wechat';
import { simRouter } from './routes/sim';
import { cashierRouter } from './routes/cashier';

/**
 * Merchant API bodies are read as text whatever the Content-Type, so the signature is checked
 * over the exact bytes and a malformed body still gets a WeChat-style answer.
 */
const merchantBody = bodyParser({
  enableTypes: ['text'],
  extendTypes: { text: ['*/*'] },
  textLimit: '1mb',
});

/** Everything else: JSON and forms; the mini-program APIs accept JSON without a Content-Type. */
const otherBody = bodyParser({
  enableTypes: ['json', 'form'],
  detectJSON: (ctx) => ctx.path.startsWith('/cgi-bin/'),
  onError: (_err, ctx) => ctx.throw(400, 'malformed body'),
});

/**
 * The H5 build of the mini-program runs on another origin and asks the simulator for wx.login
 * codes from the browser: the development endpoints under /sim answer CORS (preflight too).
 */
async function simCors(ctx: Koa.Context, next: Koa.Next) {
  if (!ctx.path.startsWith('/sim/')) return next();
  ctx.set('Access-Control-Allow-Origin', ctx.get('origin') || '*');
  ctx.set('Vary', 'Origin');
  if (ctx.method !== 'OPTIONS') return next();
  ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', ctx.get('access-control-request-headers') || 'content-type');
  ctx.set('Access-Control-Max-Age', '600');
  ctx.status = 204;
}

export function buildApp(svc: Services): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (err: Error) => svc.log(`unhandled: ${err.stack ?? String(err)}`));
  app.use(simCors);

  app.use(async (ctx, next) =>
    ctx.path.startsWith('/v3/') ? merchantBody(ctx, next) : otherBody(ctx, next),
  );
  const merchant = merchantApi(svc);
  app.use(async (ctx, next) => (ctx.path.startsWith('/v3/') ? merchant(ctx, next) : next()));

  for (const router of [merchantRouter(svc), wechatRouter(svc), simRouter(svc), cashierRouter(svc)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
