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
import { api, download, resource } from './client';

const BASE = '/api/v1/admin/venues';

const venues = resource<VenueSummary, VenueDetail, VenueCreateInput, VenueUpdateInput, VenueSummary>(BASE);

export const { list: listVenues, get: getVenue, create: createVenue, update: updateVenue } = venues;
export const replaceLayout = (id: string, body: VenueLayoutInput) =>
  api<VenueSummary>('PUT', `${BASE}/${id}/layout`, body);
export const generateLayout = (blocks: BlockSpecInput[]) =>
  api<LayoutPreview>('POST', `${BASE}/layout/generate`, { blocks });
export const parseLayout = (body: ParseLayoutInput) =>
  api<ParsedLayout & LayoutPreview>('POST', `${BASE}/layout/parse`, body);
export const exportLayout = (v: Pick<VenueSummary, 'id' | 'name'>, format: 'csv' | 'json') =>
  download(`${BASE}/${v.id}/layout?format=${format}`, `${v.name}.${format}`);
