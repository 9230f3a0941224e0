import type { CheckinAnswer, CheckinResult, CheckinSyncAnswer } from '@showtix/shared-types';
import { request } from './http';
import type { StaffShows } from './staff-me';
import type { OfflineBundle } from './ticket-code';

// 我的 (main package) asks staffMe from staff-me.ts; this file is the gate's, in the staff sub-package.
export { staffMe, type StaffShows } from './staff-me';

// The server's answers, typed once in shared-types (types only: erased, so the index is safe here).
export type { CheckinAnswer, CheckinResult };

export interface SyncItem {
  ticketNo: string;
  scannedAt: string;
  /** The code the phone showed: the server checks it again at scannedAt. */
  code: string;
}

/** A typed ticket number and its second factor (manual entry, online only). */
export interface ManualInput {
  ticketNo: string;
  idLast4?: string;
  spokenCode?: string;
}

export function redeemInvite(code: string): Promise<StaffShows> {
  return request<StaffShows>('/api/v1/staff/invites/redeem', {
    method: 'POST',
    auth: true,
    body: { code: code.trim().toUpperCase() },
  });
}

export function checkin(
  input: { qr: string } | ManualInput,
  gate: string,
  sessionId: string,
): Promise<CheckinAnswer> {
  return request<CheckinAnswer>('/api/v1/checkin', {
    method: 'POST',
    auth: true,
    body: { ...input, gate, sessionId },
  });
}

/** bundle: the token of the offline bundle the scans were checked with. */
export async function syncCheckins(
  gate: string,
  sessionId: string,
  bundle: string,
  checkins: SyncItem[],
): Promise<CheckinSyncAnswer['items']> {
  return (
    await request<CheckinSyncAnswer>('/api/v1/checkin/sync', {
      method: 'POST',
      auth: true,
      body: { gate, sessionId, bundle, checkins },
    })
  ).items;
}

export function offlineBundle(sessionId: string): Promise<OfflineBundle> {
  return request<OfflineBundle>(`/api/v1/staff/sessions/${encodeURIComponent(sessionId)}/offline-bundle`, {
    auth: true,
  });
}
