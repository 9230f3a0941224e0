import type { OpsOverview } from '@showtix/shared-types';
import { api } from './client';

const BASE = '/api/v1/admin/ops';

export const opsOverview = () => api<OpsOverview>('GET', BASE);
/** One of the page's repair actions (retry a parked message, replay a refund...): its path under /ops. */
export const opsAction = (path: string) => api<void>('POST', `${BASE}${path}`);
export const resolveRefundCase = (refundId: string, body: unknown) =>
  api<void>('POST', `${BASE}/refund-cases/${refundId}/resolve`, body);
