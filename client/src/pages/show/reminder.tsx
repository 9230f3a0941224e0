import type { ShowDetail } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useState } from 'react';
import Icon from '../../components/icon/Icon';
import { currentToken } from '../../services/auth';
import { toApiError } from '../../services/errors';
import {
  canRemind,
  cancelSaleReminder,
  mySaleReminders,
  setSaleReminder,
} from '../../services/sale-reminders';
import { tapTarget } from '../../utils/a11y';
import { askNoticeConsent } from '../../utils/subscribe';

const toast = (title: string) => void Taro.showToast({ title, icon: 'none' });

/**
 * Whether the fan has a 开售提醒 of this show, and the show's 想看 count (the fans who set one),
 * kept in step with the fan's taps. Asked of the server only on a show not yet selling and for a
 * fan who is logged in (browsing never logs anyone in).
 */
export function useSaleReminder(d: Pick<ShowDetail, 'id' | 'wantCount' | 'sessions'>) {
  const [on, setOn] = useState(false);
  const [count, setCount] = useState(d.wantCount ?? 0);
  const remindable = canRemind(d);
  useEffect(() => {
    // On a show already selling there is nothing to offer, so nothing to ask.
    if (!remindable || !currentToken()) return undefined;
    let live = true;
    mySaleReminders().then(
      (r) => live && setOn(r.items.some((x) => x.showId === d.id)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [d.id, remindable]);
  const set = async () => {
    // First thing in the tap: WeChat shows its consent dialog only while a tap is handled.
    await askNoticeConsent(['sale_open']);
    const before = on;
    await setSaleReminder(d.id);
    setOn(true);
    if (!before) setCount((n) => n + 1);
    toast('已设置开售提醒，开售时通过微信通知您');
  };
  const cancel = async () => {
    const { confirm } = await Taro.showModal({ title: '取消开售提醒', content: '开售时将不再通知您' });
    if (!confirm) return;
    const { removed } = await cancelSaleReminder(d.id);
    setOn(false);
    if (removed) setCount((n) => Math.max(0, n - 1));
    toast('已取消开售提醒');
  };
  const toggle = () => (on ? cancel() : set()).catch((err) => toast(toApiError(err).message));
  return { on, count, toggle };
}

/** "N人想看" under the title, when anyone does. */
export function WantCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Text className="show__meta" data-testid="want-count">
      {count > 9999 ? `${(count / 10000).toFixed(1)}万` : count}人想看
    </Text>
  );
}

/** 开售提醒 / 已设提醒 among the hero's actions, on a show not yet on sale. */
export function SaleReminderAction({
  d,
  state,
}: {
  d: Pick<ShowDetail, 'sessions'>;
  state: ReturnType<typeof useSaleReminder>;
}) {
  if (!canRemind(d)) return null;
  return (
    <View
      className={`hero-action${state.on ? ' hero-action--on' : ''}`}
      data-testid="sale-reminder"
      onClick={() => void state.toggle()}
      {...tapTarget({ pressed: state.on })}
    >
      <Icon name="bell" color="white" size="sm" />
      <Text>{state.on ? '已设提醒' : '开售提醒'}</Text>
    </View>
  );
}
