import { useState } from 'react';
import { Card, Table } from 'antd';
import type { AuditEntry } from '@showtix/shared-types';
import { searchAudit } from '../../api/audit';
import { useApi } from '../../api/useApi';
import { AUDIT_COLUMNS, AuditDiff, AuditFilters, type AuditFilter } from './AuditParts';

export function AuditPage() {
  const [filters, setFilters] = useState<AuditFilter>({});
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const { data, loading } = useApi(() => searchAudit({ ...filters, ...page }), [filters, page]);
  return (
    <>
      <div className="page-header">
        <h2>操作日志</h2>
      </div>
      <Card style={{ marginBottom: 16 }}>
        <AuditFilters
          onSearch={(f) => (setFilters(f), setPage((p) => ({ ...p, page: 1 })))}
          onReset={() => setFilters({})}
        />
      </Card>
      <Card>
        <Table<AuditEntry>
          rowKey="id"
          loading={loading}
          dataSource={data?.items}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: data?.total,
            showTotal: (t) => `共 ${t} 条`,
            onChange: (p, s) => setPage({ page: p, pageSize: s }),
          }}
          expandable={{
            rowExpandable: (r) => r.before !== null || r.after !== null,
            expandedRowRender: (r) => <AuditDiff r={r} />,
          }}
          columns={AUDIT_COLUMNS}
        />
      </Card>
    </>
  );
}
