import Router from '@koa/router';
import type { Middleware } from 'koa';
import { AdminRefundSchema, ExportQuerySchema, OrderSearchSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { appError } from '../../errors';
import { ADMIN_PREFIX, actor, allow, download } from '../../http/admin/http';
import type { AdminOrderService, RefundPath } from './service';

function orderNo(value: string | undefined): string {
  if (!value || !/^\d{6,32}$/.test(value)) throw appError('NOT_FOUND', undefined, '订单不存在');
  return value;
}

export function orderRoutes(
  orders: AdminOrderService,
  refunds: RefundPath,
  auth: Middleware,
  clock: Clock,
): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/orders` });
  r.use(auth, allow('operator'));
  r.get('/', async (ctx) => {
    const { page, pageSize, ...filter } = OrderSearchSchema.parse(ctx.query);
    ctx.body = await orders.search(filter, page, pageSize);
  });
  r.get('/export', async (ctx) => {
    const { page: _p, pageSize: _s, format, ...filter } = ExportQuerySchema.parse(ctx.query);
    const file = await orders.export(actor(ctx), filter, format, clock.now());
    download(ctx, file.name, file.type, file.body);
  });
  r.get('/:orderNo', async (ctx) => {
    ctx.body = await orders.detail(orderNo(ctx.params.orderNo));
  });
  r.post('/:orderNo/refund', async (ctx) => {
    const body = AdminRefundSchema.parse(ctx.request.body);
    ctx.body = await orders.refund(refunds, actor(ctx), orderNo(ctx.params.orderNo), body, clock.now());
  });
  return r;
}
