import { useState } from 'react';
import type { AdminPage } from '@showtix/shared-types';
import { useApi } from './useApi';

export interface PageAt {
  page: number;
  pageSize: number;
}

/**
 * A list page behind a search form: the filters last searched with and the page shown. A new
 * search starts again at page 1; a reset clears the filters and stays on the page. `pagination`
 * is the table's, less the wording of its total (条, 笔), which each page chooses.
 */
export function usePagedSearch<F extends object, Row>(
  search: (filters: F, page: PageAt) => Promise<AdminPage<Row>>,
) {
  // Every search form's fields are optional, so no filters is an empty object.
  const [filters, setFilters] = useState<F>({} as F);
  const [page, setPage] = useState<PageAt>({ page: 1, pageSize: 20 });
  const loaded = useApi(() => search(filters, page), [filters, page]);
  return {
    ...loaded,
    filters,
    onSearch: (f: F) => {
      setFilters(f);
      setPage((p) => ({ ...p, page: 1 }));
    },
    onReset: () => setFilters({} as F),
    pagination: {
      current: page.page,
      pageSize: page.pageSize,
      total: loaded.data?.total,
      onChange: (p: number, s: number) => setPage({ page: p, pageSize: s }),
    },
  };
}
