import type { BlockCreateInput, BlockEntry, RiskFlag } from '@showtix/shared-types';
import { api, listOf } from './client';

const BASE = '/api/v1/admin/risk';

export const listBlocks = listOf<BlockEntry>(`${BASE}/blocklist`);
export const addBlock = (body: BlockCreateInput) => api<BlockEntry>('POST', `${BASE}/blocklist`, body);
export const removeBlock = (id: string) => api<void>('DELETE', `${BASE}/blocklist/${id}`);
export const listFlags = listOf<RiskFlag>(`${BASE}/flags`);
