import { Card, Col, Empty, Row, Statistic, Table } from 'antd';
import dayjs from 'dayjs';
import type { CheckinGateRow, CheckinReport } from '@showtix/shared-types';
import { EChart } from '../../components/EChart';
import { gateOption, quarterOption } from './charts';

/** Admissions of one session per gate (and device) and per quarter hour. */
export function CheckinTab({ report }: { report: CheckinReport }) {
  if (!report.total) return <Empty description="该场次还没有入场记录" />;
  return (
    <>
      <Statistic title="已入场" value={report.total} suffix="人" />
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} lg={10}>
          <Card size="small" title="按入口">
            <EChart option={gateOption(report)} testId="chart-gates" />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title="按时间(每15分钟)">
            <EChart
              option={quarterOption(report, (iso) => dayjs(iso).format('MM-DD HH:mm'))}
              testId="chart-quarters"
            />
          </Card>
        </Col>
      </Row>
      <Card size="small" title="入口与设备" style={{ marginTop: 16 }}>
        <Table<CheckinGateRow>
          rowKey={(r) => `${r.gate}/${r.device}`}
          size="small"
          pagination={false}
          dataSource={report.byGate}
          columns={[
            { title: '入口', dataIndex: 'gate' },
            { title: '设备', dataIndex: 'device', render: (d: string) => d || '—' },
            { title: '入场人数', dataIndex: 'count', align: 'right' },
          ]}
        />
      </Card>
    </>
  );
}
