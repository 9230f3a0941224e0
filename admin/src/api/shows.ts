import type {
  AdminShowDetail,
  AdminShowSummary,
  ShowCreateInput,
  ShowUpdateInput,
} from '@showtix/shared-types';
import { api, resource } from './client';

const shows = resource<AdminShowSummary, AdminShowDetail, ShowCreateInput, ShowUpdateInput>(
  '/api/v1/admin/shows',
);

export const { list: listShows, get: getShow, create: createShow, update: updateShow } = shows;

/** Uploads a poster image as it is; answers the address to store in the show. */
export const uploadPoster = (file: File) =>
  api<{ url: string }>('POST', '/api/v1/admin/uploads/poster', file, {
    'content-type': file.type || 'application/octet-stream',
  });
