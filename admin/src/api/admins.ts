import type { AdminAccount, AdminCreateInput, AdminItems, AdminUpdateInput } from '@showtix/shared-types';
import { api } from './client';

const BASE = '/api/v1/admin/admins';

export const listAdmins = () => api<AdminItems<AdminAccount>>('GET', BASE);
export const createAdmin = (body: AdminCreateInput) => api<AdminAccount>('POST', BASE, body);
export const updateAdmin = (id: string, body: AdminUpdateInput) =>
  api<AdminAccount>('PATCH', `${BASE}/${id}`, body);
