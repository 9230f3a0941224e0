import type { SaleReminder, SaleReminderList, ShowDetail } from '@showtix/shared-types';
import { request } from './http';

const path = (showId: string) => `/api/v1/shows/${encodeURIComponent(showId)}/sale-reminder`;

/** 开售提醒: set (asking again answers the same reminder), cancel, and the fan's list (我的). */
export function setSaleReminder(showId: string): Promise<SaleReminder> {
  return request<SaleReminder>(path(showId), { method: 'POST', auth: true });
}

export function cancelSaleReminder(showId: string): Promise<{ removed: boolean }> {
  return request<{ removed: boolean }>(path(showId), { method: 'DELETE', auth: true });
}

export function mySaleReminders(): Promise<SaleReminderList> {
  return request<SaleReminderList>('/api/v1/me/sale-reminders', { auth: true });
}

/** A reminder can be set while no session of the show is selling and one is still to open (the server's rule). */
export function canRemind(d: Pick<ShowDetail, 'sessions'>): boolean {
  const st = d.sessions.map((s) => s.status);
  return st.includes('presale') && !st.includes('on_sale') && !st.includes('sold_out');
}

/**
 * What 我的 says of a reminder. Once the sale opened it does not claim the fan was told: the
 * notice needs a consent left, which the server may not have had.
 */
export function reminderStateText(r: SaleReminder): string {
  return r.state === 'notified' ? '已开售，快去购票' : '待开售，开售时通过微信通知您';
}
