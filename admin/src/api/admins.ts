import type { AdminAccount, AdminCreateInput, AdminUpdateInput } from '@showtix/shared-types';
import { api, listOf } from './client';

const BASE = '/api/v1/admin/admins';

export const listAdmins = listOf<AdminAccount>(BASE);
export const createAdmin = (body: AdminCreateInput) => api<AdminAccount>('POST', BASE, body);
export const updateAdmin = (id: string, body: AdminUpdateInput) =>
  api<AdminAccount>('PATCH', `${BASE}/${id}`, body);
