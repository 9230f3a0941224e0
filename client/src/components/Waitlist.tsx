import type { SessionInfo, WaitlistEntry } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import { go } from '../routes';
import { toApiError } from '../services/errors';
import {
  WAITLIST_END_TEXT,
  WAITLIST_STATE_TEXT,
  joinWaitlist,
  leaveWaitlist,
  myWaitlist,
} from '../services/waitlist';
import { formatYuan } from '../utils/money';
import { formatDateTime } from '../utils/time';
import { tapTarget } from '../utils/a11y';
import {
  blankAttendee,
  normaliseAttendees,
  validateAttendees,
  type AttendeeErrors,
  type AttendeeInput,
} from '../services/attendees';
import AttendeeList from './AttendeeList';
import BusyButton from './BusyButton';
import { MeList, useRowAction } from './MeList';
import { askNoticeConsent, WAITLIST_NOTICE_KINDS } from '../utils/subscribe';

const toast = (title: string) => void Taro.showToast({ title, icon: 'none' });

/**
 * 候补 on a sold-out session: per price tier, join its line for 1..limit tickets. Returned
 * tickets are offered in join order as an order held for the fan, who is told (with consent).
 * A real-name session asks for the attendees now, one per ticket, as 确认订单 does: the offer's
 * tickets are bound to them (one ID, one ticket).
 */
export function WaitlistJoin({ s }: { s: SessionInfo }) {
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState('');
  const [attendees, setAttendees] = useState<AttendeeInput[]>(() => [blankAttendee()]);
  const [errors, setErrors] = useState<AttendeeErrors[]>([]);
  const join = async (tierId: string) => {
    const named = s.realName ? validateAttendees(attendees) : undefined;
    if (named && !named.ok) {
      setErrors(named.errors);
      return toast('请完善观演人信息');
    }
    setBusy(tierId);
    // WeChat shows the consent dialog only in a tap: first thing, before the join is sent.
    await askNoticeConsent(WAITLIST_NOTICE_KINDS);
    try {
      await joinWaitlist(s.id, {
        tierId,
        quantity,
        ...(s.realName ? { attendees: normaliseAttendees(attendees) } : {}),
      });
      toast('已加入候补，有票退回时将为您保留并通知');
    } catch (err) {
      toast(toApiError(err).message);
    } finally {
      setBusy('');
    }
  };
  const step = (d: number) => {
    const n = Math.min(s.purchaseLimit, Math.max(1, quantity + d));
    setQuantity(n);
    // One attendee per ticket: the typed ones are kept, a new ticket gets an empty form.
    setAttendees((list) => Array.from({ length: n }, (_, i) => list[i] ?? blankAttendee()));
    setErrors((errs) => errs.slice(0, n));
  };
  return (
    <View className="card waitlist" data-testid="waitlist-join">
      <Text className="card__title">候补购票</Text>
      <Text className="card__sub">
        {s.status === 'sold_out' ? '已售罄，' : '心仪票档售罄？'}加入候补后，有票退回将按候补顺序为您保留
      </Text>
      <View className="waitlist__qty">
        <Text>候补张数</Text>
        <Text data-testid="waitlist-minus" onClick={() => step(-1)} {...tapTarget()}>
          －
        </Text>
        <Text data-testid="waitlist-quantity">{quantity}</Text>
        <Text data-testid="waitlist-plus" onClick={() => step(1)} {...tapTarget()}>
          ＋
        </Text>
      </View>
      {s.realName ? (
        <View className="waitlist__attendees" data-testid="waitlist-attendees">
          <Text className="card__sub">
            本场实名制，一人一证一票：请为每张候补票填写观演人，候补成功后门票绑定该观演人
          </Text>
          <AttendeeList
            attendees={attendees}
            setAttendees={setAttendees}
            errors={errors}
            setErrors={setErrors}
            labels={attendees.map((_, i) => `第 ${i + 1} 张`)}
          />
        </View>
      ) : null}
      {s.tiers.map((t) => (
        <View key={t.id} className="waitlist__tier">
          <Text>
            {t.name} {formatYuan(t.priceFen)}
          </Text>
          <BusyButton
            className="btn btn--primary btn--sm"
            testid={`waitlist-join-${t.id}`}
            busy={busy === t.id}
            onClick={() => void join(t.id)}
          >
            候补
          </BusyButton>
        </View>
      ))}
    </View>
  );
}

function EntryRow({ e, onChanged }: { e: WaitlistEntry; onChanged: () => void }) {
  const { busy, run } = useRowAction(onChanged);
  const leave = () => run(() => leaveWaitlist(e.id), e.state === 'offered' ? '已放弃候补' : '已取消候补');
  return (
    <View className="waitlist__entry" data-testid="waitlist-entry">
      <Text className="card__text">{e.showTitle}</Text>
      <Text className="card__sub">
        {formatDateTime(e.startsAt)} · {e.tierName} × {e.quantity}
      </Text>
      <Text className="note" data-testid="waitlist-state">
        {WAITLIST_STATE_TEXT[e.state]}
        {e.state === 'waiting' ? `（前面还有 ${e.ahead} 位）` : ''}
        {e.state === 'offered' && e.offerExpiresAt ? `，请于 ${formatDateTime(e.offerExpiresAt)} 前支付` : ''}
        {e.endReason ? `（${WAITLIST_END_TEXT[e.endReason]}）` : ''}
      </Text>
      {e.attendees.length ? (
        <Text className="card__sub" data-testid="waitlist-attendees-of">
          观演人：{e.attendees.map((a) => `${a.name} ${a.idMasked}`).join('、')}
        </Text>
      ) : null}
      {e.state === 'offered' && e.orderNo ? (
        <BusyButton
          className="btn btn--primary btn--sm"
          testid="waitlist-pay"
          busy={false}
          onClick={() => go('order', { orderNo: e.orderNo! })}
        >
          去支付
        </BusyButton>
      ) : null}
      {e.state === 'waiting' || e.state === 'offered' ? (
        <BusyButton
          className="btn btn--ghost btn--sm"
          testid="waitlist-leave"
          busy={busy}
          onClick={() => void leave()}
        >
          {e.state === 'offered' ? '放弃' : '取消候补'}
        </BusyButton>
      ) : null}
    </View>
  );
}

/** 我的候补 on the 我的 page: the fan's entries; an offer is paid on its order page or declined. */
export function MyWaitlist() {
  return (
    <MeList
      title="我的候补"
      testid="my-waitlist"
      load={myWaitlist}
      row={(e, reload) => <EntryRow key={e.id} e={e} onChanged={reload} />}
    />
  );
}
