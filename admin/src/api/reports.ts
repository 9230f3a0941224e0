import type { CheckinReport, ReportKind, SalesReport, SettlementReport } from '@showtix/shared-types';
import { api, download, query } from './client';

const BASE = '/api/v1/admin/reports';

/** The filters as the query string takes them: show, session, Beijing days `from`..`to`. */
export type ReportFilter = {
  showId?: string;
  sessionId?: string;
  from?: string;
  to?: string;
};

export const salesReport = (f: ReportFilter) => api<SalesReport>('GET', `${BASE}/sales${query(f)}`);
export const settlementReport = (f: ReportFilter) =>
  api<SettlementReport>('GET', `${BASE}/settlement${query(f)}`);
export const checkinReport = (sessionId: string) =>
  api<CheckinReport>('GET', `${BASE}/checkins${query({ sessionId })}`);
export const exportReport = (kind: ReportKind, f: ReportFilter, format: 'csv' | 'xlsx') =>
  download(`${BASE}/export${query({ ...f, kind, format })}`, `报表.${format}`);
