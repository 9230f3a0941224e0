import { useState } from 'react';
import { App, Button, Card, Empty, Space, Tabs, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ReportKind } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import {
  checkinReport,
  exportReport,
  salesReport,
  settlementReport,
  type ReportFilter,
} from '../../api/reports';
import { useApi } from '../../api/useApi';
import { LoadState } from '../../components/LoadState';
import { CheckinTab } from './CheckinTab';
import { ReportFilters } from './ReportFilters';
import { SalesTab } from './SalesTab';
import { SettlementTab } from './SettlementTab';

/** The tab's report, loaded when the tab or the filter changes; check-ins need a session. */
function useReport(kind: ReportKind, f: ReportFilter) {
  return useApi(async () => {
    if (kind === 'sales') return { kind, report: await salesReport(f) } as const;
    if (kind === 'settlement') return { kind, report: await settlementReport(f) } as const;
    if (!f.sessionId) return undefined;
    return { kind, report: await checkinReport(f.sessionId) } as const;
  }, [kind, f]);
}

function ReportBody({ kind, filter }: { kind: ReportKind; filter: ReportFilter }) {
  const r = useReport(kind, filter);
  if (kind === 'checkins' && !filter.sessionId) return <Empty description="入场报表请先选择演出和场次" />;
  if (!r.data || r.data.kind !== kind) return <LoadState error={r.error} />;
  if (r.data.kind === 'sales') return <SalesTab report={r.data.report} />;
  if (r.data.kind === 'settlement') return <SettlementTab report={r.data.report} />;
  return <CheckinTab report={r.data.report} />;
}

/** 报表: sales, settlement and check-in, with charts, filters and CSV/XLSX exports. */
export function ReportsPage() {
  const { message } = App.useApp();
  const [kind, setKind] = useState<ReportKind>('sales');
  const [filter, setFilter] = useState<ReportFilter>({});
  const [busy, setBusy] = useState<string>();
  const doExport = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      await exportReport(kind, filter, format);
    } catch (e) {
      void message.error(errorText(e, '导出失败'));
    } finally {
      setBusy(undefined);
    }
  };
  const exportable = kind !== 'checkins' || !!filter.sessionId;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        报表
      </Typography.Title>
      <Card size="small">
        <ReportFilters onApply={setFilter} />
      </Card>
      <Card>
        <Tabs
          activeKey={kind}
          onChange={(k) => setKind(k as ReportKind)}
          items={[
            { key: 'sales', label: '销售' },
            { key: 'settlement', label: '结算' },
            { key: 'checkins', label: '入场' },
          ]}
          tabBarExtraContent={
            <Space>
              {(['csv', 'xlsx'] as const).map((f) => (
                <Button
                  key={f}
                  icon={<DownloadOutlined />}
                  loading={busy === f}
                  disabled={!exportable}
                  onClick={() => void doExport(f)}
                >
                  导出 {f.toUpperCase()}
                </Button>
              ))}
            </Space>
          }
        />
        <ReportBody kind={kind} filter={filter} />
      </Card>
    </Space>
  );
}
