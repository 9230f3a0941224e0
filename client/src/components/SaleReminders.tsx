import type { SaleReminder } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import { go } from '../routes';
import { toApiError } from '../services/errors';
import { cancelSaleReminder, mySaleReminders, reminderStateText } from '../services/sale-reminders';
import { tapTarget } from '../utils/a11y';
import { formatDateTime } from '../utils/time';
import BusyButton from './BusyButton';
import { MeList } from './MeList';

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
  return (
    <MeList
      title="开售提醒"
      testid="my-sale-reminders"
      load={mySaleReminders}
      row={(r, reload) => <ReminderRow key={r.showId} r={r} onChanged={reload} />}
    />
  );
}
