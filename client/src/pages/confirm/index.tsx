import { Button, ScrollView, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useState } from 'react';
import AttendeeList from '../../components/AttendeeList';
import BusyButton from '../../components/BusyButton';
import ErrorPanel from '../../components/ErrorPanel';
import { Empty } from '../../components/Loading';
import { BarTotal } from '../../components/PriceTag';
import TurnTimer from '../../components/TurnTimer';
import { useCountdown } from '../../hooks/useCountdown';
import { back, replace } from '../../routes';
import {
  blankAttendee,
  ID_TYPE_LABELS,
  validateAttendees,
  type AttendeeErrors,
  type AttendeeInput,
} from '../../services/attendees';
import { checkPhone, rememberedPhone } from '../../services/contact-phone';
import { maskIdNumber } from '../../services/shared';
import { draftTotalFen, draftUnits, loadDraft, type CheckoutDraft } from '../../services/draft';
import { askNoticeConsent, PAY_NOTICE_KINDS } from '../../utils/subscribe';
import { currentAdmission } from '../../services/queue';
import { formatYuan } from '../../utils/money';
import { runRemedy } from '../../utils/remedy';
import { formatCountdown, formatDateTime } from '../../utils/time';
import ContactPhone from './ContactPhone';
import QueuedIdNote, { coversQueuedId, queuedId } from './QueuedId';
import { useCheckout } from './useCheckout';
import { usePay } from './usePay';
import { tapTarget } from '../../utils/a11y';
import './index.scss';

function Lines({ d }: { d: CheckoutDraft }) {
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
function AttendeeSummary({ list, labels }: { list: AttendeeInput[]; labels: string[] }) {
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

function HoldTimer(props: { expireAt: string; expired: boolean; onExpired: () => void }) {
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

export default function ConfirmPage() {
  const { params } = useRouter();
  const [draft] = useState(() => loadDraft(params.sessionId ?? ''));
  const units = draft ? draftUnits(draft) : 0;
  const [attendees, setAttendees] = useState<AttendeeInput[]>(() =>
    Array.from({ length: units }, blankAttendee),
  );
  const [fieldErrors, setFieldErrors] = useState<AttendeeErrors[]>([]);
  const [phone, setPhone] = useState(rememberedPhone);
  const [phoneError, setPhoneError] = useState<string>();
  const checkout = useCheckout(draft);
  const payment = usePay();
  const [admission] = useState(() => (draft?.queueEnabled ? currentAdmission(draft.sessionId) : undefined));
  const [queued] = useState(() =>
    draft?.queueEnabled && draft.realName ? queuedId(draft.sessionId) : undefined,
  );
  const [queuedMissing, setQueuedMissing] = useState(false);

  if (!draft) {
    return (
      <View className="page">
        <Empty text="选座信息已失效，请重新选座">
          <Button className="btn btn--primary" onClick={() => back('home')}>
            返回
          </Button>
        </Empty>
      </View>
    );
  }
  const order = checkout.order;
  const total = order ? order.amountFen : draftTotalFen(draft);
  const labels = draft.seats
    ? draft.seats.map((s) => s.label)
    : Array.from({ length: units }, () => draft.zone!.name);
  const reselect = () => back('seatmap', { sessionId: draft.sessionId, showId: draft.showId });
  const requeue = () => replace('queue', { sessionId: draft.sessionId, showId: draft.showId });

  // One tap: the order is placed and WeChat Pay opens straight after (no second 支付 tap).
  const submit = async () => {
    // Every field is checked at once, so the fan sees all that is missing in one go.
    const v = draft.realName ? validateAttendees(attendees) : { ok: true, errors: [] };
    const p = checkPhone(phone);
    const missing = v.ok && !coversQueuedId(attendees, queued);
    setFieldErrors(v.errors);
    setPhoneError(p.ok ? undefined : p.error);
    setQueuedMissing(missing);
    if (!v.ok) return void Taro.showToast({ title: '请完善观演人信息', icon: 'none' });
    if (missing) return void Taro.showToast({ title: '排队证件须为观演人之一', icon: 'none' });
    if (!p.ok) return void Taro.showToast({ title: p.error, icon: 'none' });
    setPhone(p.phone);
    // Asked within the tap (WeChat shows the consent dialog only in answer to one), while the
    // order is placed; WeChat Pay opens once the fan has answered. A refusal still pays.
    const consent = askNoticeConsent(PAY_NOTICE_KINDS);
    const placed = await checkout.submit({ attendees, contactPhone: p.phone });
    await consent;
    if (placed) await payment.pay(placed);
  };
  const pay = () => askNoticeConsent(PAY_NOTICE_KINDS).then(() => payment.pay(order));
  const { expired, paying } = payment;
  const shown = checkout.error ?? payment.error;
  const onErrorAction = () => {
    const err = shown!;
    checkout.setError(undefined);
    payment.setError(undefined);
    runRemedy(
      err,
      {
        pick_other_seats: reselect,
        adjust_selection: reselect,
        order_again: reselect,
        back_to_show: () => back('show', { id: draft.showId }),
        fix_input: () => undefined,
        retry: order ? pay : submit,
        retry_later: () => {
          const wait = err.retryAfterMs ?? 3000;
          void Taro.showToast({ title: `${Math.ceil(wait / 1000)} 秒后自动重试`, icon: 'none' });
          setTimeout(order ? pay : submit, wait);
        },
        refresh_order: () => order && replace('order', { orderNo: order.orderNo }),
        rejoin_queue: requeue,
      },
      order ? pay : submit,
    );
  };

  return (
    <View className="page page--barred confirm">
      {draft.queueEnabled && !order ? <TurnTimer admission={admission} onRequeue={requeue} /> : null}
      <ScrollView scrollY className="confirm__scroll">
        {order ? <HoldTimer expireAt={order.expireAt} expired={expired} onExpired={reselect} /> : null}
        <View className="card confirm__show">
          <Text className="confirm__title">{draft.showTitle}</Text>
          <Text className="card__sub">{formatDateTime(draft.startsAt)}</Text>
          <Text className="card__sub">{draft.venueName}</Text>
        </View>
        <Lines d={draft} />
        {/* After a reload the attendees typed here are gone (ID numbers are not kept on the phone). */}
        {draft.realName && order && attendees.some((a) => a.name) ? (
          <AttendeeSummary list={attendees} labels={labels} />
        ) : null}
        {draft.realName && !order ? (
          <View className="card">
            <Text className="card__title">观演人信息</Text>
            <Text className="card__sub">本场实名制，一人一证一票，入场需核验证件</Text>
            {queued ? <QueuedIdNote id={queued} missing={queuedMissing} /> : null}
            <AttendeeList
              attendees={attendees}
              setAttendees={setAttendees}
              errors={fieldErrors}
              setErrors={setFieldErrors}
              labels={labels}
            />
          </View>
        ) : null}
        <ContactPhone
          value={phone}
          error={phoneError}
          locked={Boolean(order)}
          onChange={(value) => {
            setPhone(value);
            setPhoneError(undefined);
          }}
        />
        <View className="card card--notice">
          <Text className="card__text">
            提交订单后将直接进入微信支付；取消支付的订单会保留至倒计时结束，可在本页或订单详情中继续支付。演出票品具有时效性，请确认场次与座位后再支付。
          </Text>
        </View>
      </ScrollView>
      <View className="bottom-bar">
        <BarTotal label="实付" testid="confirm-total" fen={total} />
        {order && expired ? (
          <Button className="btn btn--primary btn--wide" data-testid="reselect" onClick={reselect}>
            重新选座
          </Button>
        ) : order ? (
          <BusyButton className="btn btn--primary btn--wide" testid="pay-button" busy={paying} onClick={pay}>
            支付 {formatYuan(order.amountFen)}
          </BusyButton>
        ) : (
          <BusyButton
            className="btn btn--primary btn--wide"
            testid="submit-order"
            busy={checkout.busy || paying}
            onClick={() => void submit()}
          >
            提交订单并支付
          </BusyButton>
        )}
      </View>
      {shown ? (
        <ErrorPanel
          error={shown}
          onAction={onErrorAction}
          onClose={() => (checkout.setError(undefined), payment.setError(undefined))}
        />
      ) : null}
    </View>
  );
}
