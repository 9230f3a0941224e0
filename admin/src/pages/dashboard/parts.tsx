import type { ReactNode } from 'react';
import { Badge, Card, Col, Row, Space, Statistic, Tag, Typography } from 'antd';
import type { AdminItems, AdminLiveSession, SeatMap, SessionDashboard } from '@showtix/shared-types';
import { EChart } from '../../components/EChart';
import { PageHeader } from '../../components/PageParts';
import { SearchSelect } from '../../components/SearchSelect';
import { SeatMapCanvas } from '../../components/SeatMapCanvas';
import type { PlotSeat } from '../../seatmap/geometry';
import { dateTime, percent, SESSION_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { colorAt } from '../shows/tierModel';
import type { DashboardOptions } from './useLive';
import { SOLD_SEAT } from './useLive';

/** One figure of the top row: six fill the row on a wide screen, two a line on a phone. */
function StatCard({ children }: { children: ReactNode }) {
  return (
    <Col xs={12} lg={4}>
      <Card>{children}</Card>
    </Col>
  );
}

/** The title row: when the figures were taken, and the session picker. */
export function DashboardHeader(p: {
  d: SessionDashboard | undefined;
  sessionId: string | undefined;
  sessions: AdminItems<AdminLiveSession> | undefined;
  loading: boolean;
  onPick: (id: string) => void;
}) {
  const { d } = p;
  return (
    <PageHeader title="实时销售看板">
      <Space>
        {d && (
          <Badge
            status="processing"
            text={
              <Typography.Text type="secondary">
                每 3 秒自动刷新 · {new Date(d.generatedAt).toLocaleTimeString('zh-CN')}
              </Typography.Text>
            }
          />
        )}
        <SessionPicker {...p} />
      </Space>
    </PageHeader>
  );
}

function SessionPicker({ sessionId, sessions, loading, onPick }: Parameters<typeof DashboardHeader>[0]) {
  return (
    <SearchSelect
      name="选择场次"
      style={{ minWidth: 360 }}
      placeholder="选择场次（可输入演出名搜索）"
      value={sessionId}
      loading={loading}
      onChange={onPick}
      options={(sessions?.items ?? []).map((s) => ({
        value: s.id,
        label: `${s.showTitle} · ${dateTime(s.startsAt)} · ${SESSION_STATUS[s.status].label}`,
      }))}
      data-testid="session-picker"
    />
  );
}

/** The six figures of the top row. */
export function StatRow({ d, heldSeat }: { d: SessionDashboard; heldSeat: string }) {
  const soldPct = d.totals.capacity ? d.totals.sold / d.totals.capacity : null;
  return (
    <Row gutter={[16, 16]} className="stat-grid" style={{ marginBottom: 16 }}>
      <StatCard>
        <Statistic
          title="已售"
          value={d.totals.sold}
          suffix={`/ ${d.totals.capacity}`}
          data-testid="stat-sold"
        />
        <Typography.Text type="secondary">售出率 {percent(soldPct)}</Typography.Text>
      </StatCard>
      <StatCard>
        <Statistic
          title="锁座中（待支付）"
          value={d.totals.held}
          styles={{ content: { color: heldSeat } }}
          data-testid="stat-held"
        />
      </StatCard>
      <StatCard>
        <Statistic title="可售" value={d.totals.available} data-testid="stat-available" />
      </StatCard>
      <StatCard>
        <Statistic title="销售额（已扣退款）" value={fenToYuan(d.revenueFen)} data-testid="stat-revenue" />
        <Typography.Text type="secondary">退款 {fenToYuan(d.refundedFen)}</Typography.Text>
      </StatCard>
      <StatCard>
        <Statistic title="订单" value={d.orders.total} suffix="笔" data-testid="stat-orders" />
        <Typography.Text type="secondary">
          待支付 {d.orders.pending} · 已退款 {d.orders.refunded}
        </Typography.Text>
      </StatCard>
      <StatCard>
        <Statistic title="排队人数" value={d.queue.enabled ? (d.queue.length ?? '—') : '未开启'} />
        <Tag color={SESSION_STATUS[d.status].color}>{SESSION_STATUS[d.status].label}</Tag>
      </StatCard>
    </Row>
  );
}

/** Sales by tier and orders by minute: both grow with the number of tiers, so they stay level. */
export function SalesCharts({ d, options }: { d: SessionDashboard; options: DashboardOptions }) {
  const barsHeight = Math.max(220, 70 * d.tiers.length + 60);
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
      <Col xs={24} xl={14}>
        <Card size="small" title="各票档销售（张）">
          <EChart option={options.tiers} height={barsHeight} testId="chart-tiers" />
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card size="small" title="每分钟下单与支付（近 30 分钟）">
          <EChart option={options.minutes} height={barsHeight} testId="chart-minutes" />
        </Card>
      </Col>
    </Row>
  );
}

/** Payment rate, order states and the live seat map. */
export function LiveRow(p: {
  options: DashboardOptions;
  map: SeatMap | undefined;
  colorOf: (s: PlotSeat) => string;
  heldSeat: string;
}) {
  const { options, map, colorOf, heldSeat } = p;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={6}>
        <Card size="small" title="支付成功率">
          <EChart option={options.rate} height={260} />
        </Card>
      </Col>
      <Col xs={24} xl={6}>
        <Card size="small" title="订单状态">
          <EChart option={options.status} height={260} />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title="实时座位图">
          <SeatMapCanvas seats={map?.seats ?? []} colorOf={colorOf} height={260} testId="live-seatmap" />
          <div className="legend" style={{ marginTop: 6 }}>
            <span>
              <i style={{ background: SOLD_SEAT }} />
              已售
            </span>
            <span>
              <i style={{ background: heldSeat }} />
              锁座中
            </span>
            {map?.tiers.map((t, i) => (
              <span key={t.id}>
                <i style={{ background: t.color || colorAt(i) }} />
                {t.name} {fenToYuan(t.priceFen)}
              </span>
            ))}
          </div>
        </Card>
      </Col>
    </Row>
  );
}
