import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState, type ReactNode } from 'react';
import { useLoad } from '../hooks/useLoad';
import { toApiError } from '../services/errors';

const toast = (title: string) => void Taro.showToast({ title, icon: 'none' });

/**
 * A row's change (cancel a reminder, leave a line): busy while it runs, then a toast saying what
 * was done and the list reloaded; a refusal toasts the server's reason.
 */
export function useRowAction(onChanged: () => void) {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      toast(done);
      onChanged();
    } catch (err) {
      toast(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/**
 * A card of the 我的 page listing what the fan has of one kind (候补, 开售提醒), hidden while
 * there is none. `row` draws an item; it gets `reload` for after the fan changed one.
 */
export function MeList<T>({
  title,
  testid,
  load,
  row,
}: {
  title: string;
  testid: string;
  load: () => Promise<{ items: T[] }>;
  row: (item: T, reload: () => void) => ReactNode;
}) {
  const list = useLoad(load, []);
  const items = list.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <View className="card me__group" data-testid={testid}>
      <Text className="card__title">{title}</Text>
      {items.map((item) => row(item, list.reload))}
    </View>
  );
}
