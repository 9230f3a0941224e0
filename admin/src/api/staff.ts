import type { GateCounts, InviteCreateInput, StaffInvite, StaffMember } from '@showtix/shared-types';
import { api, listOf, query } from './client';

const BASE = '/api/v1/admin/staff';

export const listStaff = listOf<StaffMember>(BASE);
export const removeStaff = (userId: string) => api<void>('DELETE', `${BASE}/${userId}`);
export const listInvites = listOf<StaffInvite>(`${BASE}/invites`);
export const createInvite = (body: InviteCreateInput) => api<StaffInvite>('POST', `${BASE}/invites`, body);
export const revokeInvite = (code: string) => api<void>('POST', `${BASE}/invites/${code}/revoke`);
export const gateCounts = (showId: string) => api<GateCounts>('GET', `${BASE}/gates${query({ showId })}`);
