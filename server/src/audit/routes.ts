import Router from '@koa/router';
import type { Middleware } from 'koa';
import { AuditQuerySchema, type AdminPage, type AuditEntry } from '@showtix/shared-types';
import type { Db } from '../db/pool';
import { ADMIN_PREFIX, allow } from '../http/admin/http';
import { listAudit, type AuditFilter } from './repo';

export class AuditService {
  constructor(private readonly db: Db) {}

  async list(q: AuditFilter & { page: number; pageSize: number }): Promise<AdminPage<AuditEntry>> {
    const { page, pageSize, ...filter } = q;
    const { rows, total } = await listAudit(this.db, filter, (page - 1) * pageSize, pageSize);
    return { items: rows, total, page, pageSize };
  }
}

export function auditRoutes(audit: AuditService, auth: Middleware): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/audit` });
  r.use(auth, allow('operator'));
  r.get('/', async (ctx) => {
    ctx.body = await audit.list(AuditQuerySchema.parse(ctx.query));
  });
  return r;
}
