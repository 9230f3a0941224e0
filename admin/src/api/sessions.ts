import type {
  AdminItems,
  AdminLiveSession,
  AdminSessionDetail,
  SeatMap,
  SessionCreateInput,
  SessionDashboard,
  SessionUpdateInput,
  TierSpecInput,
} from '@showtix/shared-types';
import { api } from './client';

const BASE = '/api/v1/admin/sessions';

export const getSession = (id: string) => api<AdminSessionDetail>('GET', `${BASE}/${id}`);
export const createSession = (showId: string, body: SessionCreateInput) =>
  api<AdminSessionDetail>('POST', `/api/v1/admin/shows/${showId}/sessions`, body);
export const updateSession = (id: string, body: SessionUpdateInput) =>
  api<AdminSessionDetail>('PATCH', `${BASE}/${id}`, body);
export const putTiers = (id: string, tiers: TierSpecInput[]) =>
  api<void>('PUT', `${BASE}/${id}/tiers`, { tiers });
export const sessionSeatMap = (id: string) => api<SeatMap>('GET', `${BASE}/${id}/seatmap`);
/** Opens the sale (inventory preheated) or ends the session. */
export const sessionAction = (id: string, what: 'open' | 'end') => api<void>('POST', `${BASE}/${id}/${what}`);
export const sessionDashboard = (id: string) => api<SessionDashboard>('GET', `${BASE}/${id}/dashboard`);
export const liveSessions = () => api<AdminItems<AdminLiveSession>>('GET', '/api/v1/admin/dashboard');
