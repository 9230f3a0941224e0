import { request } from './http';

/** The shows this WeChat user checks tickets for (empty: not staff). */
export interface StaffShows {
  shows: { id: string; title: string }[];
}

/**
 * Whether to offer the gate on 我的: the only staff call of the main package. Everything else
 * of the gate (services/staff.ts, gate.ts) is used by the staff sub-package alone, so fans never
 * download it.
 */
export function staffMe(): Promise<StaffShows> {
  return request<StaffShows>('/api/v1/staff/me', { auth: true });
}
