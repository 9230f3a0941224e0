import type { JoinWaitlistInput, WaitlistEndReason, WaitlistEntry } from '@showtix/shared-types';
import { request } from './http';

/** The waiting list (候补) for returned tickets: join a sold-out tier's line, mine, leave/decline. */
export function joinWaitlist(sessionId: string, body: JoinWaitlistInput): Promise<WaitlistEntry> {
  return request<WaitlistEntry>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/waitlist`, {
    method: 'POST',
    body,
    auth: true,
  });
}

export function myWaitlist(): Promise<{ items: WaitlistEntry[] }> {
  return request<{ items: WaitlistEntry[] }>('/api/v1/me/waitlist', { auth: true });
}

/** Leaves the line; an entry holding an offer declines it (its order is cancelled). */
export function leaveWaitlist(entryId: string): Promise<WaitlistEntry> {
  return request<WaitlistEntry>(`/api/v1/waitlist/${encodeURIComponent(entryId)}`, {
    method: 'DELETE',
    auth: true,
  });
}

/** What the 我的 page says of an entry's state. */
export const WAITLIST_STATE_TEXT: Record<WaitlistEntry['state'], string> = {
  waiting: '候补中',
  offered: '候补成功，待支付',
  fulfilled: '已购票',
  lapsed: '已过期',
  declined: '已放弃',
  left: '已取消候补',
  ended: '候补结束',
};

/** Why an entry ended, as the 我的 page says it. */
export const WAITLIST_END_TEXT: Record<WaitlistEndReason, string> = {
  attendee_taken: '观演人已持有本场次门票，名额已顺延给下一位',
  limit: '已达每人限购数量',
  sale_stopped: '本场次已停止售票',
};
