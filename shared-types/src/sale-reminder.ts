/**
 * 开售提醒 (sale reminder): a fan asks to be told when a show goes on sale. The server sends one
 * 'sale_open' subscribe message per fan and show, with the fan's consent, when a session of the
 * show opens for sale.
 */
export interface SaleReminder {
  showId: string;
  title: string;
  /** The earliest sale start of the show's sessions still in presale; null once none is left. */
  saleStartsAt: string | null;
  /** waiting: not on sale yet; notified: the sale opened and the notice went out (or was tried). */
  state: 'waiting' | 'notified';
  createdAt: string;
  notifiedAt: string | null;
}

/** GET /api/v1/me/sale-reminders */
export interface SaleReminderList {
  items: SaleReminder[];
}
