import type { AdminTransferView, TransferSettings } from '@showtix/shared-types';
import { api } from './client';

/** A show's 转赠 rules (on/off, cutoff before the start, once per ticket). */
export const getTransferSettings = (showId: string) =>
  api<TransferSettings>('GET', `/api/v1/admin/shows/${showId}/transfer-settings`);
export const saveTransferSettings = (showId: string, body: TransferSettings) =>
  api<TransferSettings>('PUT', `/api/v1/admin/shows/${showId}/transfer-settings`, body);
/** Every transfer of an order, oldest first (the order drawer). */
export const orderTransfers = (orderNo: string) =>
  api<{ items: AdminTransferView[] }>('GET', `/api/v1/admin/orders/${orderNo}/transfers`);
