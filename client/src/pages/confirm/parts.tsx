import { Button, Text, View } from '@tarojs/components';
import type { Dispatch, SetStateAction } from 'react';
import AttendeeList from '../../components/AttendeeList';
import BusyButton from '../../components/BusyButton';
import { BarTotal } from '../../components/PriceTag';
import { useCountdown } from '../../hooks/useCountdown';
import { ID_TYPE_LABELS, type AttendeeErrors, type AttendeeInput } from '../../services/attendees';
import { maskIdNumber } from '../../services/shared';
import type { CheckoutDraft } from '../../services/draft';
import { formatYuan } from '../../utils/money';
import { formatCountdown, formatDateTime } from '../../utils/time';
import { tapTarget } from '../../utils/a11y';
import type { QueueJoin } from '../../services/queue';
import QueuedIdNote from './QueuedId';

export function Lines({ d }: { d: CheckoutDraft }) {
  const lines = d.seats
    ? d.seats.map((s) => ({ key: s.id, label: s.label, sub: s.tierName, fen: s.priceFen }))
    : [
        {
          key: d.zone!.id,
          label: `${d.zone!.name} × ${d.zone!.quantity}`,
          sub: '自由站席',
          fen: d.zone!.priceFen * d.zone!.quantity,
        },
      ];
  return (
    <View className="card">
      <Text className="card__title">{d.seats ? `已选座位（${d.seats.length}）` : '已选区域'}</Text>
      {lines.map((l) => (
        <View key={l.key} className="line" data-testid="order-line">
          <View className="line__main">
            <Text className="line__label">{l.label}</Text>
            <Text className="line__sub">{l.sub}</Text>
          </View>
          <Text className="line__price">{formatYuan(l.fen)}</Text>
        </View>
      ))}
    </View>
  );
}

/** Once the order holds the seats, who goes is fixed: shown read-only, ID numbers masked. */
export function AttendeeSummary({ list, labels }: { list: AttendeeInput[]; labels: string[] }) {
  return (
    <View className="card">
      <Text className="card__title">观演人</Text>
      {list.map((a, i) => (
        <View key={i} className="line" data-testid="attendee-summary">
          <View className="line__main">
            <Text className="line__label">{a.name}</Text>
            <Text className="line__sub">
              {ID_TYPE_LABELS[a.idType]} {maskIdNumber(a.idNumber.trim().toUpperCase())}
            </Text>
          </View>
          <Text className="line__sub">{labels[i]}</Text>
        </View>
      ))}
    </View>
  );
}

export function HoldTimer(props: { expireAt: string; expired: boolean; onExpired: () => void }) {
  const { expireAt, expired, onExpired } = props;
  const left = useCountdown(expireAt);
  // The server's word (ORDER_EXPIRED) wins over this phone's clock.
  if (left <= 0 || expired) {
    return (
      <View className="hold hold--over" data-testid="hold-expired" onClick={onExpired} {...tapTarget()}>
        <Text>支付超时，座位已释放。点此重新选座</Text>
      </View>
    );
  }
  return (
    <View className="hold" data-testid="hold-timer">
      <Text>座位已为您锁定，请在 </Text>
      <Text className="hold__clock">{formatCountdown(left)}</Text>
      <Text> 内完成支付</Text>
    </View>
  );
}

export function ShowCard({ d }: { d: CheckoutDraft }) {
  return (
    <View className="card confirm__show">
      <Text className="confirm__title">{d.showTitle}</Text>
      <Text className="card__sub">{formatDateTime(d.startsAt)}</Text>
      <Text className="card__sub">{d.venueName}</Text>
    </View>
  );
}

export interface AttendeeFormProps {
  form: {
    attendees: AttendeeInput[];
    setAttendees: Dispatch<SetStateAction<AttendeeInput[]>>;
    fieldErrors: AttendeeErrors[];
    setFieldErrors: Dispatch<SetStateAction<AttendeeErrors[]>>;
    queued?: Required<QueueJoin>;
    queuedMissing: boolean;
  };
  labels: string[];
}

/** 观演人信息 before the order is placed (real-name sessions only). */
export function AttendeeForm({ form: f, labels }: AttendeeFormProps) {
  return (
    <View className="card">
      <Text className="card__title">观演人信息</Text>
      <Text className="card__sub">本场实名制，一人一证一票，入场需核验证件</Text>
      {f.queued ? <QueuedIdNote id={f.queued} missing={f.queuedMissing} /> : null}
      <AttendeeList
        attendees={f.attendees}
        setAttendees={f.setAttendees}
        errors={f.fieldErrors}
        setErrors={f.setFieldErrors}
        labels={labels}
      />
    </View>
  );
}

export function PayNotice() {
  return (
    <View className="card card--notice">
      <Text className="card__text">
        提交订单后将直接进入微信支付；取消支付的订单会保留至倒计时结束，可在本页或订单详情中继续支付。演出票品具有时效性，请确认场次与座位后再支付。
      </Text>
    </View>
  );
}

export interface ConfirmBarProps {
  total: number;
  c: {
    order?: { amountFen: number };
    payment: { expired: boolean; paying: boolean };
    checkout: { busy: boolean };
    reselect: () => void;
    pay: () => void;
    submit: () => Promise<void>;
  };
}

/** 实付 and the one button: 提交订单并支付, then 支付, then 重新选座 once the hold is over. */
export function ConfirmBar({ total, c }: ConfirmBarProps) {
  const { expired, paying } = c.payment;
  const p = { total, order: c.order, expired, paying, reselect: c.reselect, pay: c.pay };
  return (
    <View className="bottom-bar">
      <BarTotal label="实付" testid="confirm-total" fen={p.total} />
      {p.order && p.expired ? (
        <Button className="btn btn--primary btn--wide" data-testid="reselect" onClick={p.reselect}>
          重新选座
        </Button>
      ) : p.order ? (
        <BusyButton
          className="btn btn--primary btn--wide"
          testid="pay-button"
          busy={p.paying}
          onClick={p.pay}
        >
          支付 {formatYuan(p.order.amountFen)}
        </BusyButton>
      ) : (
        <BusyButton
          className="btn btn--primary btn--wide"
          testid="submit-order"
          busy={c.checkout.busy || p.paying}
          onClick={() => void c.submit()}
        >
          提交订单并支付
        </BusyButton>
      )}
    </View>
  );
}
