import type { AdminPage, AuditEntry, AuditQueryInput } from '@showtix/shared-types';
import { api, query } from './client';

export const searchAudit = (q: AuditQueryInput & { page: number; pageSize: number }) =>
  api<AdminPage<AuditEntry>>(
    'GET',
    `/api/v1/admin/audit${query(q as Record<string, string | number | undefined>)}`,
  );
