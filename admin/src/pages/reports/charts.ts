import type { CheckinReport, SalesReport } from '@showtix/shared-types';
import type { ChartOption } from '../../components/EChart';

const SALES = '#e4393c';
const REFUND = '#8c8c8c';
const ENTRY = '#2f7cf6';
const yuan = (fen: number) => fen / 100;

/** Money received and refunded per Beijing day, in yuan. */
export function salesByDayOption(r: SalesReport): ChartOption {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { data: ['销售额', '退款'], top: 0 },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: r.byDay.map((d) => d.date) },
    yAxis: { type: 'value', name: '元' },
    series: [
      {
        name: '销售额',
        type: 'bar',
        itemStyle: { color: SALES },
        data: r.byDay.map((d) => yuan(d.grossFen)),
      },
      {
        name: '退款',
        type: 'bar',
        itemStyle: { color: REFUND },
        data: r.byDay.map((d) => yuan(d.refundedFen)),
      },
    ],
  };
}

/** Tickets sold per tier (tiers of several sessions keep their own bars). */
export function salesByTierOption(r: SalesReport, sessionLabel: (id: string) => string): ChartOption {
  const several = new Set(r.byTier.map((t) => t.sessionId)).size > 1;
  const names = r.byTier.map((t) => (several ? `${sessionLabel(t.sessionId)} ${t.tierName}` : t.tierName));
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1, name: '张' },
    yAxis: { type: 'category', data: names, inverse: true },
    series: [
      {
        name: '票数',
        type: 'bar',
        itemStyle: { color: SALES },
        label: { show: true, position: 'right' },
        data: r.byTier.map((t) => t.tickets),
      },
    ],
  };
}

/** Admissions per gate (devices of one gate added up). */
export function gateOption(r: CheckinReport): ChartOption {
  const perGate = new Map<string, number>();
  for (const g of r.byGate) perGate.set(g.gate, (perGate.get(g.gate) ?? 0) + g.count);
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1, name: '人' },
    yAxis: { type: 'category', data: [...perGate.keys()], inverse: true },
    series: [
      {
        name: '入场',
        type: 'bar',
        itemStyle: { color: ENTRY },
        label: { show: true, position: 'right' },
        data: [...perGate.values()],
      },
    ],
  };
}

/** Admissions per quarter hour, labelled in the browser's time (the organiser's, Beijing). */
export function quarterOption(r: CheckinReport, label: (iso: string) => string): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: r.byTime.map((b) => label(b.at)) },
    yAxis: { type: 'value', minInterval: 1, name: '人/15分钟' },
    series: [{ name: '入场', type: 'bar', itemStyle: { color: ENTRY }, data: r.byTime.map((b) => b.count) }],
  };
}
