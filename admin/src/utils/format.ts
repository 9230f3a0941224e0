import dayjs from 'dayjs';
import type { OrderStatus, SessionStatus } from '@showtix/shared-types';

export function dateTime(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—';
}

export function dateTimeSec(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '—';
}

export const SESSION_STATUS: Record<SessionStatus, { label: string; color: string }> = {
  presale: { label: '预售中', color: 'blue' },
  on_sale: { label: '售票中', color: 'green' },
  sold_out: { label: '已售罄', color: 'volcano' },
  ended: { label: '已结束', color: 'default' },
  cancelled: { label: '已取消', color: 'red' },
};

export const ORDER_STATUS: Record<OrderStatus, { label: string; color: string }> = {
  pending: { label: '待支付', color: 'gold' },
  paid: { label: '已支付', color: 'blue' },
  ticketed: { label: '已出票', color: 'green' },
  cancelled: { label: '已取消', color: 'default' },
  refunded: { label: '已退款', color: 'purple' },
};

export const ROLE_LABEL: Record<string, string> = {
  admin: '管理员',
  operator: '运营',
  staff_manager: '现场管理',
};

export function percent(v: number | null): string {
  return v === null ? '—' : `${(v * 100).toFixed(1)}%`;
}
