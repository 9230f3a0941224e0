import type { CompIssueInput, CompListView, CompView, ReservationsView } from '@showtix/shared-types';
import { api } from './client';

const BASE = '/api/v1/admin/sessions';

/** 预留 (units held back from public sale) and 赠票 (complimentary tickets) of a session. */
export const reservations = (sessionId: string) =>
  api<ReservationsView>('GET', `${BASE}/${sessionId}/reservations`);
export const reserveSeats = (sessionId: string, seatIds: string[]) =>
  api<ReservationsView>('POST', `${BASE}/${sessionId}/reservations/seats`, { seatIds });
export const releaseSeats = (sessionId: string, seatIds: string[]) =>
  api<ReservationsView>('POST', `${BASE}/${sessionId}/reservations/seats/release`, { seatIds });
export const setZoneReserved = (sessionId: string, zoneId: string, reserved: number) =>
  api<ReservationsView>('PUT', `${BASE}/${sessionId}/reservations/zones/${zoneId}`, { reserved });
export const comps = (sessionId: string) => api<CompListView>('GET', `${BASE}/${sessionId}/comps`);
export const issueComp = (sessionId: string, body: CompIssueInput) =>
  api<CompView>('POST', `${BASE}/${sessionId}/comps`, body);
export const voidComp = (orderId: string, reason: string) =>
  api<CompView>('POST', `/api/v1/admin/comps/${orderId}/void`, { reason });
