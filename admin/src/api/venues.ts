import type {
  BlockSpecInput,
  LayoutPreview,
  ParsedLayout,
  ParseLayoutInput,
  VenueCreateInput,
  VenueDetail,
  VenueLayoutInput,
  VenueSummary,
  VenueUpdateInput,
} from '@showtix/shared-types';
import { api, download, listOf } from './client';

const BASE = '/api/v1/admin/venues';

export const listVenues = listOf<VenueSummary>(BASE);
export const getVenue = (id: string) => api<VenueDetail>('GET', `${BASE}/${id}`);
export const updateVenue = (id: string, body: VenueUpdateInput) =>
  api<VenueSummary>('PATCH', `${BASE}/${id}`, body);
export const createVenue = (body: VenueCreateInput) => api<VenueSummary>('POST', BASE, body);
export const replaceLayout = (id: string, body: VenueLayoutInput) =>
  api<VenueSummary>('PUT', `${BASE}/${id}/layout`, body);
export const generateLayout = (blocks: BlockSpecInput[]) =>
  api<LayoutPreview>('POST', `${BASE}/layout/generate`, { blocks });
export const parseLayout = (body: ParseLayoutInput) =>
  api<ParsedLayout & LayoutPreview>('POST', `${BASE}/layout/parse`, body);
export const exportLayout = (v: Pick<VenueSummary, 'id' | 'name'>, format: 'csv' | 'json') =>
  download(`${BASE}/${v.id}/layout?format=${format}`, `${v.name}.${format}`);
