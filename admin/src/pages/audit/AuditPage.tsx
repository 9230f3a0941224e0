import { Card, Table } from 'antd';
import type { AuditEntry } from '@showtix/shared-types';
import { searchAudit } from '../../api/audit';
import { usePagedSearch } from '../../api/usePagedSearch';
import { AUDIT_COLUMNS, AuditDiff, AuditFilters, type AuditFilter } from './AuditParts';

export function AuditPage() {
  const { data, loading, onSearch, onReset, pagination } = usePagedSearch((f: AuditFilter, page) =>
    searchAudit({ ...f, ...page }),
  );
  return (
    <>
      <div className="page-header">
        <h2>操作日志</h2>
      </div>
      <Card style={{ marginBottom: 16 }}>
        <AuditFilters onSearch={onSearch} onReset={onReset} />
      </Card>
      <Card>
        <Table<AuditEntry>
          rowKey="id"
          loading={loading}
          dataSource={data?.items}
          pagination={{ ...pagination, showTotal: (t) => `共 ${t} 条` }}
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
