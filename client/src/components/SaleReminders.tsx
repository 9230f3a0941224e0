import type { SaleReminder } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import { go } from '../routes';
import { cancelSaleReminder, mySaleReminders, reminderStateText } from '../services/sale-reminders';
import { tapTarget } from '../utils/a11y';
import { formatDateTime } from '../utils/time';
import BusyButton from './BusyButton';
import { MeList, useRowAction } from './MeList';

function ReminderRow({ r, onChanged }: { r: SaleReminder; onChanged: () => void }) {
  const { busy, run } = useRowAction(onChanged);
  const cancel = () => run(() => cancelSaleReminder(r.showId), '已取消开售提醒');
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
