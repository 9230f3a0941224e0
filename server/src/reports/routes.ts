import Router from '@koa/router';
import type { Middleware } from 'koa';
import { CheckinReportQuerySchema, ReportExportSchema, ReportQuerySchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { ADMIN_PREFIX, actor, allow, download } from '../http/admin/http';
import type { ReportService } from './service';

/** Organiser reports: sales, settlement, check-in, and their CSV/XLSX exports. */
export function reportRoutes(reports: ReportService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/reports` });
  r.use(auth, allow('operator'));
  r.get('/sales', async (ctx) => {
    ctx.body = await reports.sales(ReportQuerySchema.parse(ctx.query), clock.now());
  });
  r.get('/settlement', async (ctx) => {
    ctx.body = await reports.settlement(ReportQuerySchema.parse(ctx.query), clock.now());
  });
  r.get('/checkins', async (ctx) => {
    const { sessionId } = CheckinReportQuerySchema.parse(ctx.query);
    ctx.body = await reports.checkins(sessionId, clock.now());
  });
  r.get('/export', async (ctx) => {
    const { kind, format, ...q } = ReportExportSchema.parse(ctx.query);
    const query = ReportQuerySchema.parse(q);
    const file = await reports.export(actor(ctx), kind, query, format, clock.now());
    download(ctx, file.name, file.type, file.body);
  });
  return r;
}
