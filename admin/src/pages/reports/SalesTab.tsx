import { Card, Col, Empty, Row, Statistic, Table } from 'antd';
import type { SalesReport, SalesSession, SalesTier } from '@showtix/shared-types';
import { EChart } from '../../components/EChart';
import { dateTime } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { salesByDayOption, salesByTierOption } from './charts';

const CHANNEL_LABEL: Record<string, string> = { miniprogram: '小程序(微信支付)', comp: '赠票' };

const money = (fen: number) => fenToYuan(fen);

/** Sales of the filter's shows, sessions and Beijing days: totals, charts and the tables behind them. */
export function SalesTab({ report }: { report: SalesReport }) {
  const t = report.totals;
  const sessionLabel = (id: string) => {
    const s = report.bySession.find((x) => x.sessionId === id);
    return s ? `${s.showTitle} ${dateTime(s.startsAt)}` : id;
  };
  if (!t.orders && !t.refundedFen) return <Empty description="所选范围内没有销售" />;
  return (
    <>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Statistic title="已付订单" value={t.orders} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title="售出票数" value={t.tickets} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title="销售额" value={money(t.grossFen)} data-testid="sales-gross" />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title="退款" value={money(t.refundedFen)} />
        </Col>
      </Row>
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} lg={14}>
          <Card size="small" title="按日(北京时间)">
            <EChart option={salesByDayOption(report)} testId="chart-sales-day" />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title="按票档">
            <EChart option={salesByTierOption(report, sessionLabel)} testId="chart-sales-tier" />
          </Card>
        </Col>
      </Row>
      <Card size="small" title="按场次" style={{ marginTop: 16 }}>
        <Table<SalesSession>
          rowKey="sessionId"
          size="small"
          pagination={false}
          dataSource={report.bySession}
          columns={[
            { title: '演出', dataIndex: 'showTitle' },
            { title: '场次时间', dataIndex: 'startsAt', render: (v: string) => dateTime(v) },
            { title: '订单', dataIndex: 'orders', align: 'right' },
            { title: '票数', dataIndex: 'tickets', align: 'right' },
            { title: '销售额', dataIndex: 'grossFen', align: 'right', render: money },
            { title: '退款', dataIndex: 'refundedFen', align: 'right', render: money },
          ]}
        />
      </Card>
      <TierAndChannel report={report} sessionLabel={sessionLabel} />
    </>
  );
}

function TierAndChannel({
  report,
  sessionLabel,
}: {
  report: SalesReport;
  sessionLabel: (id: string) => string;
}) {
  return (
    <Row gutter={16} style={{ marginTop: 16 }}>
      <Col xs={24} lg={14}>
        <Card size="small" title="按票档">
          <Table<SalesTier>
            rowKey={(r) => `${r.sessionId}-${r.tierId}`}
            size="small"
            pagination={false}
            dataSource={report.byTier}
            columns={[
              { title: '场次', dataIndex: 'sessionId', render: sessionLabel },
              { title: '票档', dataIndex: 'tierName' },
              { title: '票价', dataIndex: 'priceFen', align: 'right', render: money },
              { title: '票数', dataIndex: 'tickets', align: 'right' },
              { title: '销售额', dataIndex: 'grossFen', align: 'right', render: money },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card size="small" title="按渠道">
          <Table
            rowKey="channel"
            size="small"
            pagination={false}
            dataSource={report.byChannel}
            columns={[
              { title: '渠道', dataIndex: 'channel', render: (c: string) => CHANNEL_LABEL[c] ?? c },
              { title: '订单', dataIndex: 'orders', align: 'right' },
              { title: '票数', dataIndex: 'tickets', align: 'right' },
              { title: '销售额', dataIndex: 'grossFen', align: 'right', render: money },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
