import type {
  AdminShowDetail,
  AdminShowSummary,
  ShowCreateInput,
  ShowUpdateInput,
} from '@showtix/shared-types';
import { api, listOf } from './client';

const BASE = '/api/v1/admin/shows';

export const listShows = listOf<AdminShowSummary>(BASE);
export const getShow = (id: string) => api<AdminShowDetail>('GET', `${BASE}/${id}`);
export const createShow = (body: ShowCreateInput) => api<AdminShowDetail>('POST', BASE, body);
export const updateShow = (id: string, body: ShowUpdateInput) =>
  api<AdminShowDetail>('PATCH', `${BASE}/${id}`, body);
/** Uploads a poster image as it is; answers the address to store in the show. */
export const uploadPoster = (file: File) =>
  api<{ url: string }>('POST', '/api/v1/admin/uploads/poster', file, {
    'content-type': file.type || 'application/octet-stream',
  });
