import { Card, Empty, Statistic } from 'antd';
import dayjs from 'dayjs';
import type { CheckinGateRow, CheckinReport } from '@showtix/shared-types';
import { gateOption, quarterOption } from './charts';
import { CardPair, ChartCard, countColumn, ReportTable } from './parts';

/** Admissions of one session per gate (and device) and per quarter hour. */
export function CheckinTab({ report }: { report: CheckinReport }) {
  if (!report.total) return <Empty description="该场次还没有入场记录" />;
  return (
    <>
      <Statistic title="已入场" value={report.total} suffix="人" />
      <CardPair first={10}>
        <ChartCard title="按入口" option={gateOption(report)} testId="chart-gates" />
        <ChartCard
          title="按时间(每15分钟)"
          option={quarterOption(report, (iso) => dayjs(iso).format('MM-DD HH:mm'))}
          testId="chart-quarters"
        />
      </CardPair>
      <Card size="small" title="入口与设备" style={{ marginTop: 16 }}>
        <ReportTable<CheckinGateRow>
          rowKey={(r) => `${r.gate}/${r.device}`}
          dataSource={report.byGate}
          columns={[
            { title: '入口', dataIndex: 'gate' },
            { title: '设备', dataIndex: 'device', render: (d: string) => d || '—' },
            countColumn('入场人数', 'count'),
          ]}
        />
      </Card>
    </>
  );
}
