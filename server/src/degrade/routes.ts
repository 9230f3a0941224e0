import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { DegradeSetSchema, ERRORS } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { ADMIN_PREFIX, actor, allow } from '../http/admin/http';
import type { DegradeService } from './service';

/** The admin page's switches: read by operators, flipped by operators (admins can do all). */
export function degradeRoutes(degrade: DegradeService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/degrade` });
  r.use(auth, allow('operator'));
  r.get('/', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = degrade.current();
  });
  r.put('/', async (ctx) => {
    const input = DegradeSetSchema.parse(ctx.request.body);
    ctx.body = await degrade.set(actor(ctx), input, clock.now());
  });
  return r;
}

/**
 * What the pause_nonessential switch stops: work nobody needs during an on-sale and that costs
 * real CPU or memory (a poster's bytes into MySQL, a spreadsheet of every order, the per-gate
 * report, the organiser's reports). Method + path.
 */
const NON_ESSENTIAL: [method: string, path: RegExp][] = [
  ['POST', /^\/api\/v1\/admin\/uploads\/poster$/],
  ['GET', /^\/api\/v1\/admin\/orders\/export$/],
  ['GET', /^\/api\/v1\/admin\/staff\/gates$/],
  // Reports aggregate every payment of their range: they wait until the crowd has gone.
  ['GET', /^\/api\/v1\/admin\/reports\/(sales|settlement|checkins|export)$/],
];

/** Refuses the non-essential endpoints with 503 FEATURE_PAUSED while the switch is on. */
export function pausedMiddleware(degrade: DegradeService) {
  const body = { error: { code: 'FEATURE_PAUSED', message: ERRORS.FEATURE_PAUSED.message } };
  // Not an async function: the usual request (switch off) just passes through.
  return (ctx: Context, next: Next) => {
    if (
      degrade.nonEssentialPaused() &&
      NON_ESSENTIAL.some(([m, re]) => m === ctx.method && re.test(ctx.path))
    ) {
      ctx.status = 503;
      ctx.set('Retry-After', '60');
      ctx.body = body;
      return;
    }
    return next();
  };
}
