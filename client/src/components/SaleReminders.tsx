import type { SaleReminder } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import { useLoad } from '../hooks/useLoad';
import { go } from '../routes';
import { toApiError } from '../services/errors';
import { cancelSaleReminder, mySaleReminders, reminderStateText } from '../services/sale-reminders';
import { tapTarget } from '../utils/a11y';
import { formatDateTime } from '../utils/time';
import BusyButton from './BusyButton';

const toast = (title: string) => void Taro.showToast({ title, icon: 'none' });

function ReminderRow({ r, onChanged }: { r: SaleReminder; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      await cancelSaleReminder(r.showId);
      toast('已取消开售提醒');
      onChanged();
    } catch (err) {
      toast(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <View className="waitlist__entry" data-testid="sale-reminder-entry">
      <View onClick={() => go('show', { id: r.showId })} {...tapTarget()}>
        <Text className="card__text">{r.title}</Text>
      </View>
      <Text className="note" data-testid="sale-reminder-state">
        {reminderStateText(r)}
        {r.state === 'waiting' && r.saleStartsAt ? `（${formatDateTime(r.saleStartsAt)} 开售）` : ''}
      </Text>
      {r.state === 'waiting' ? (
        <BusyButton
          className="btn btn--ghost btn--sm"
          testid="sale-reminder-cancel"
          busy={busy}
          onClick={() => void cancel()}
        >
          取消提醒
        </BusyButton>
      ) : null}
    </View>
  );
}

/** 开售提醒 on the 我的 page: the shows the fan asked to be told of; a waiting one can be cancelled. */
export function MySaleReminders() {
  const list = useLoad(mySaleReminders, []);
  const items = list.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <View className="card me__group" data-testid="my-sale-reminders">
      <Text className="card__title">开售提醒</Text>
      {items.map((r) => (
        <ReminderRow key={r.showId} r={r} onChanged={list.reload} />
      ))}
    </View>
  );
}
