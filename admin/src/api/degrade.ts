import type { DegradeSetInput, DegradeState } from '@showtix/shared-types';
import { api } from './client';

const PATH = '/api/v1/admin/degrade';

export const getDegrade = () => api<DegradeState>('GET', PATH);
/** `reason` goes to the 操作日志 with the flip. */
export const setDegrade = (input: DegradeSetInput & { reason?: string }) => api<void>('PUT', PATH, input);
