import type { SessionDashboard } from '@showtix/shared-types';
import type { ChartOption } from '../../components/EChart';

const SOLD = '#e4393c';
const HELD = '#ff8a00';
const FREE = '#d9e2ec';

/** Sold / held / available per tier, stacked, one bar per tier. */
export function tierOption(d: SessionDashboard): ChartOption {
  const names = d.tiers.map((t) => `${t.name}（¥${(t.priceFen / 100).toLocaleString('zh-CN')}）`);
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { data: ['已售', '锁座中', '可售'], top: 0 },
    grid: { left: 8, right: 24, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: names, inverse: true },
    series: [
      {
        name: '已售',
        type: 'bar',
        stack: 'all',
        itemStyle: { color: SOLD },
        label: {
          show: true,
          position: 'inside',
          formatter: (p: { value: number }) => (p.value ? String(p.value) : ''),
        },
        data: d.tiers.map((t) => t.sold),
      },
      {
        name: '锁座中',
        type: 'bar',
        stack: 'all',
        itemStyle: { color: HELD },
        data: d.tiers.map((t) => t.held),
      },
      {
        name: '可售',
        type: 'bar',
        stack: 'all',
        itemStyle: { color: FREE },
        label: { show: true, position: 'insideRight', color: '#555' },
        data: d.tiers.map((t) => t.available),
      },
    ],
  };
}

/** Orders created and payments received per minute, the last 30 minutes. */
export function minuteOption(d: SessionDashboard): ChartOption {
  const labels = d.perMinute.map((m) => {
    const t = new Date(m.minute);
    return `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
  });
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['下单', '支付'], top: 0 },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: labels, boundaryGap: true },
    yAxis: { type: 'value', minInterval: 1, name: '笔/分钟' },
    series: [
      { name: '下单', type: 'bar', itemStyle: { color: '#2f7cf6' }, data: d.perMinute.map((m) => m.orders) },
      {
        name: '支付',
        type: 'line',
        smooth: true,
        symbolSize: 6,
        itemStyle: { color: '#52a41a' },
        data: d.perMinute.map((m) => m.payments),
      },
    ],
  };
}

/** Payment success rate as a gauge. */
export function rateOption(d: SessionDashboard): ChartOption {
  const v = d.paymentSuccessRate === null ? 0 : Math.round(d.paymentSuccessRate * 1000) / 10;
  return {
    series: [
      {
        type: 'gauge',
        min: 0,
        max: 100,
        progress: {
          show: true,
          width: 14,
          itemStyle: { color: v >= 80 ? '#52a41a' : v >= 50 ? '#ff8a00' : SOLD },
        },
        axisLine: { lineStyle: { width: 14 } },
        axisTick: { show: false },
        splitLine: { length: 8, lineStyle: { width: 1, color: '#bbb' } },
        axisLabel: { distance: 18, color: '#999', fontSize: 10 },
        pointer: { show: false },
        detail: {
          valueAnimation: true,
          fontSize: 28,
          offsetCenter: [0, '0%'],
          formatter: d.paymentSuccessRate === null ? '—' : '{value}%',
        },
        title: { show: false },
        data: [{ value: v, name: '支付成功率' }],
      },
    ],
  };
}

/** Where the orders are now: pending, paid, cancelled, refunded. */
export function statusOption(d: SessionDashboard): ChartOption {
  const data = [
    { name: '待支付', value: d.orders.pending, itemStyle: { color: HELD } },
    { name: '已支付', value: d.orders.paid, itemStyle: { color: '#52a41a' } },
    { name: '已取消', value: d.orders.cancelled, itemStyle: { color: '#bfbfbf' } },
    { name: '已退款', value: d.orders.refunded, itemStyle: { color: '#7b61ff' } },
  ].filter((x) => x.value > 0);
  return {
    tooltip: { trigger: 'item', formatter: '{b}：{c} 单（{d}%）' },
    legend: { bottom: 0, icon: 'circle' },
    series: [
      { type: 'pie', radius: ['45%', '70%'], center: ['50%', '45%'], label: { formatter: '{c}' }, data },
    ],
  };
}
