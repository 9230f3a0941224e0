import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Badge, Card, Col, Empty, Row, Select, Space, Statistic, Tag, Typography } from 'antd';
import { useNavigate, useParams } from 'react-router-dom';
import type { SessionDashboard } from '@showtix/shared-types';
import { type ApiError } from '../../api/client';
import { liveSessions, sessionDashboard, sessionSeatMap } from '../../api/sessions';
import { useApi } from '../../api/useApi';
import { EChart } from '../../components/EChart';
import { SeatMapCanvas } from '../../components/SeatMapCanvas';
import { heldColor } from '../../seatmap/colors';
import { defaultSession, lastChosen } from './defaultSession';
import { UNAVAILABLE } from '../../seatmap/draw';
import { colorAt } from '../shows/tierModel';
import type { PlotSeat } from '../../seatmap/geometry';
import { dateTime, percent, SESSION_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { minuteOption, rateOption, statusOption, tierOption } from './charts';

const POLL_MS = 3000;
/** Sold seats on the live map; held seats get a colour far from every tier's (heldColor). */
const SOLD_SEAT = '#4b4b5b';

/** One figure of the top row: six fill the row on a wide screen, two a line on a phone. */
function StatCard({ children }: { children: ReactNode }) {
  return (
    <Col xs={12} lg={4}>
      <Card>{children}</Card>
    </Col>
  );
}

/** Polls the dashboard while the page is open and visible. */
function useLive(sessionId: string | undefined) {
  const [data, setData] = useState<SessionDashboard>();
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    if (!sessionId) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    setData(undefined);
    const tick = async () => {
      if (!document.hidden) {
        try {
          const d = await sessionDashboard(sessionId);
          if (!stop) {
            setData(d);
            setError(undefined);
          }
        } catch (e) {
          if (!stop) setError(e as ApiError);
        }
      }
      if (!stop) timer = setTimeout(tick, POLL_MS);
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [sessionId]);
  return { data, error };
}

export function DashboardPage() {
  const { sessionId } = useParams();
  const navigate = useNavigate();
  const sessions = useApi(() => liveSessions(), []);
  useEffect(() => {
    const open = defaultSession(sessions.data?.items ?? [], Date.now(), lastChosen.get());
    if (!sessionId && open) navigate(`/dashboard/${open}`, { replace: true });
  }, [sessionId, sessions.data, navigate]);
  useEffect(() => {
    if (sessionId) lastChosen.set(sessionId);
  }, [sessionId]);
  const { data: d, error } = useLive(sessionId);
  const map = useApi(() => (sessionId ? sessionSeatMap(sessionId) : Promise.resolve(undefined)), [sessionId]);

  const options = useMemo(
    () =>
      d
        ? { tiers: tierOption(d), minutes: minuteOption(d), rate: rateOption(d), status: statusOption(d) }
        : undefined,
    [d],
  );
  const heldSeat = useMemo(
    () => heldColor((map.data?.tiers ?? []).map((t, i) => t.color || colorAt(i))),
    [map.data],
  );
  const colorOf = useMemo(() => {
    const tierColor = new Map((map.data?.tiers ?? []).map((t, i) => [t.id, t.color || colorAt(i)]));
    const seatTier = new Map((map.data?.seats ?? []).map((s) => [s.id, s.tierId]));
    const sold = new Set(d?.seatStates.sold);
    const held = new Set(d?.seatStates.held);
    return (s: PlotSeat) =>
      sold.has(s.id)
        ? SOLD_SEAT
        : held.has(s.id)
          ? heldSeat
          : (tierColor.get(seatTier.get(s.id)!) ?? UNAVAILABLE);
  }, [map.data, d, heldSeat]);

  const picker = (
    <Select
      style={{ minWidth: 360 }}
      placeholder="选择场次（可输入演出名搜索）"
      showSearch={{ optionFilterProp: 'label' }}
      aria-label="选择场次"
      value={sessionId}
      loading={sessions.loading}
      onChange={(id) => navigate(`/dashboard/${id}`)}
      options={(sessions.data?.items ?? []).map((s) => ({
        value: s.id,
        label: `${s.showTitle} · ${dateTime(s.startsAt)} · ${SESSION_STATUS[s.status].label}`,
      }))}
      data-testid="session-picker"
    />
  );
  const header = (
    <div className="page-header">
      <h2>实时销售看板</h2>
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
        {picker}
      </Space>
    </div>
  );
  if (!sessionId)
    return (
      <>
        {header}
        <Card>
          <Empty description={sessions.loading ? '加载中…' : '暂无进行中的场次'} />
        </Card>
      </>
    );
  const soldPct = d && d.totals.capacity ? d.totals.sold / d.totals.capacity : null;
  // The two charts share a row: both grow with the number of tiers, so they stay level.
  const barsHeight = Math.max(220, 70 * (d?.tiers.length ?? 0) + 60);
  return (
    <>
      {header}
      {error && <Alert type="error" showIcon title={error.message} style={{ marginBottom: 16 }} />}
      {d && options && (
        <>
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
              <Statistic
                title="销售额（已扣退款）"
                value={fenToYuan(d.revenueFen)}
                data-testid="stat-revenue"
              />
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
                <SeatMapCanvas
                  seats={map.data?.seats ?? []}
                  colorOf={colorOf}
                  height={260}
                  testId="live-seatmap"
                />
                <div className="legend" style={{ marginTop: 6 }}>
                  <span>
                    <i style={{ background: SOLD_SEAT }} />
                    已售
                  </span>
                  <span>
                    <i style={{ background: heldSeat }} />
                    锁座中
                  </span>
                  {map.data?.tiers.map((t, i) => (
                    <span key={t.id}>
                      <i style={{ background: t.color || colorAt(i) }} />
                      {t.name} {fenToYuan(t.priceFen)}
                    </span>
                  ))}
                </div>
              </Card>
            </Col>
          </Row>
        </>
      )}
    </>
  );
}
