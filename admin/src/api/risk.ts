import type { AdminItems, BlockCreateInput, BlockEntry, RiskFlag } from '@showtix/shared-types';
import { api } from './client';

const BASE = '/api/v1/admin/risk';

export const listBlocks = () => api<AdminItems<BlockEntry>>('GET', `${BASE}/blocklist`);
export const addBlock = (body: BlockCreateInput) => api<BlockEntry>('POST', `${BASE}/blocklist`, body);
export const removeBlock = (id: string) => api<void>('DELETE', `${BASE}/blocklist/${id}`);
export const listFlags = () => api<AdminItems<RiskFlag>>('GET', `${BASE}/flags`);
