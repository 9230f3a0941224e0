import type { VenueSummary } from '@showtix/shared-types';
import { download } from '../../api/client';

/** A venue's seat map as a file (the venue list and the venue page both offer it), named after the venue. */
export function exportLayout(v: Pick<VenueSummary, 'id' | 'name'>, format: 'csv' | 'json'): Promise<void> {
  return download(`/api/v1/admin/venues/${v.id}/layout?format=${format}`, `${v.name}.${format}`);
}
