import type {
  AdminLiveSession,
  AdminSessionDetail,
  SeatMap,
  SessionCancelInput,
  SessionChangeView,
  SessionChangesView,
  SessionCreateInput,
  SessionPostponeInput,
  SessionDashboard,
  SessionUpdateInput,
  TierSpecInput,
  WaitlistTierCount,
} from '@showtix/shared-types';
import { api, listOf } from './client';

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
export const liveSessions = listOf<AdminLiveSession>('/api/v1/admin/dashboard');
/** 取消场次 / 延期场次 and the progress of their runs (notices, refunds to the fen). */
export const cancelSession = (id: string, body: SessionCancelInput) =>
  api<SessionChangeView>('POST', `${BASE}/${id}/cancel`, body);
export const postponeSession = (id: string, body: SessionPostponeInput) =>
  api<SessionChangeView>('POST', `${BASE}/${id}/postpone`, body);
export const sessionChanges = (id: string) => api<SessionChangesView>('GET', `${BASE}/${id}/changes`);
/** 候补: the waiting list's size per price tier of a session. */
export const sessionWaitlist = (id: string) =>
  api<{ items: WaitlistTierCount[] }>('GET', `${BASE}/${id}/waitlist`);
