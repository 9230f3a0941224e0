import type {
  AdminOrderDetail,
  AdminOrderRow,
  AdminPage,
  ExportQueryInput,
  OrderSearchInput,
} from '@showtix/shared-types';
import { api, download, query } from './client';

const BASE = '/api/v1/admin/orders';

/** The search fields as the query string takes them (empty ones left out). */
export type OrderFilter = Omit<OrderSearchInput, 'page' | 'pageSize'>;

export const searchOrders = (f: OrderFilter, page: { page: number; pageSize: number }) =>
  api<AdminPage<AdminOrderRow>>('GET', `${BASE}${query({ ...f, ...page })}`);
export const getOrder = (orderNo: string) => api<AdminOrderDetail>('GET', `${BASE}/${orderNo}`);
/** ticketIds: only those tickets (per-ticket refund); none: everything not refunded yet. */
export const refundOrder = (orderNo: string, reason: string, ticketIds?: string[]) =>
  api<void>('POST', `${BASE}/${orderNo}/refund`, { reason, ...(ticketIds ? { ticketIds } : {}) });
export const exportOrders = (f: OrderFilter, format: NonNullable<ExportQueryInput['format']>) =>
  download(`${BASE}/export${query({ ...f, format })}`, `订单.${format}`);
