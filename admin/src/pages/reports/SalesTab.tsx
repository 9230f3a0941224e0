import { Card, Col, Empty, Row, Statistic } from 'antd';
import type { SalesReport, SalesSession, SalesTier } from '@showtix/shared-types';
import { dateTime } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { salesByDayOption, salesByTierOption } from './charts';
import { CardPair, ChartCard, countColumn, moneyColumn, ReportTable, SESSION_COLUMNS } from './parts';

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
      <CardPair first={14}>
        <ChartCard title="按日(北京时间)" option={salesByDayOption(report)} testId="chart-sales-day" />
        <ChartCard
          title="按票档"
          option={salesByTierOption(report, sessionLabel)}
          testId="chart-sales-tier"
        />
      </CardPair>
      <Card size="small" title="按场次" style={{ marginTop: 16 }}>
        <ReportTable<SalesSession>
          rowKey="sessionId"
          dataSource={report.bySession}
          columns={[
            ...SESSION_COLUMNS,
            countColumn('订单', 'orders'),
            countColumn('票数', 'tickets'),
            moneyColumn('销售额', 'grossFen'),
            moneyColumn('退款', 'refundedFen'),
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
    <CardPair first={14}>
      <Card size="small" title="按票档">
        <ReportTable<SalesTier>
          rowKey={(r) => `${r.sessionId}-${r.tierId}`}
          dataSource={report.byTier}
          columns={[
            { title: '场次', dataIndex: 'sessionId', render: sessionLabel },
            { title: '票档', dataIndex: 'tierName' },
            moneyColumn('票价', 'priceFen'),
            countColumn('票数', 'tickets'),
            moneyColumn('销售额', 'grossFen'),
          ]}
        />
      </Card>
      <Card size="small" title="按渠道">
        <ReportTable
          rowKey="channel"
          dataSource={report.byChannel}
          columns={[
            { title: '渠道', dataIndex: 'channel', render: (c: string) => CHANNEL_LABEL[c] ?? c },
            countColumn('订单', 'orders'),
            countColumn('票数', 'tickets'),
            moneyColumn('销售额', 'grossFen'),
          ]}
        />
      </Card>
    </CardPair>
  );
}
