import Router from '@koa/router';
import type { Middleware } from 'koa';
import { IdSchema, InviteCreateSchema, InviteRedeemSchema, StaffAssignSchema } from '@showtix/shared-types';
import { z } from 'zod';
import type { Clock } from '../../clock';
import { pathId } from '../../http/path-params';
import { principal } from '../../http/auth';
import { appError } from '../../errors';
import { ADMIN_PREFIX, actor, adminRoutes, allow } from '../../http/admin/http';
import type { StaffService } from './service';

const RemoveQuery = z.strictObject({
  showIds: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .optional(),
});
const UserQuery = z.strictObject({ q: z.string().trim().min(1).max(64) });
const GateQuery = z.strictObject({ showId: IdSchema });

export function staffRoutes(staff: StaffService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/staff` });
  r.use(auth, allow('staff_manager'));
  const routes = adminRoutes(r, clock);
  routes.get('/', async () => ({ items: await staff.list() }));
  routes.create('/', StaffAssignSchema, (c) => staff.assign(c.who, c.input.userId, c.input.showIds, c.now));
  r.get('/users', async (ctx) => {
    ctx.body = { items: await staff.findUsers(UserQuery.parse(ctx.query).q) };
  });
  r.get('/gates', async (ctx) => {
    ctx.body = await staff.gates(GateQuery.parse(ctx.query).showId);
  });
  routes.get('/invites', async () => ({ items: await staff.listInvites() }));
  routes.create('/invites', InviteCreateSchema, (c) => staff.createInvite(c.who, c.input, c.now));
  r.post('/invites/:code/revoke', async (ctx) => {
    const { code } = InviteRedeemSchema.parse({ code: ctx.params.code });
    ctx.body = await staff.revokeInvite(actor(ctx), code, clock.now());
  });
  r.delete('/:userId', async (ctx) => {
    const q = RemoveQuery.parse(ctx.query);
    await staff.remove(actor(ctx), pathId(ctx.params.userId), q.showIds?.split(','), clock.now());
    ctx.status = 204;
  });
  return r;
}

/** Fan-token side, for the mini-program: redeem an invite code, see one's own assignments. */
export function staffSelfRoutes(
  staff: StaffService,
  fanAuth: Middleware,
  clock: Clock,
  guardWrite?: (userId: string, ctx: Parameters<Middleware>[0]) => Promise<void>,
): Router {
  const r = new Router({ prefix: '/api/v1/staff' });
  r.use(fanAuth);
  const wechatUser = (ctx: Parameters<Middleware>[0]) => {
    const id = principal(ctx).userId;
    // Admin-page tokens ('admin:<id>') are not WeChat users.
    if (!/^\d{1,20}$/.test(id)) throw appError('FORBIDDEN', undefined, '请使用微信登录后再操作');
    return id;
  };
  r.post('/invites/redeem', async (ctx) => {
    // Each try is a write and a guess at a code: limited per account, device and address.
    await guardWrite?.(wechatUser(ctx), ctx);
    const { code } = InviteRedeemSchema.parse(ctx.request.body);
    ctx.body = await staff.redeem(wechatUser(ctx), code, clock.now());
  });
  r.get('/me', async (ctx) => {
    ctx.body = await staff.myShows(wechatUser(ctx));
  });
  return r;
}
