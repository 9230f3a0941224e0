import { Button, ScrollView, View } from '@tarojs/components';
import { stopPullDownRefresh, usePullDownRefresh } from '@tarojs/taro';
import { useState } from 'react';
import { Empty } from '../../components/Loading';
import { FirstLoad } from '../../components/LoadState';
import OrderCard from '../../components/OrderCard';
import TabBar from '../../components/TabBar';
import { useLoad } from '../../hooks/useLoad';
import { useShownAgain } from '../../hooks/useShownAgain';
import { go, switchTab } from '../../routes';
import { listOrders } from '../../services/orders';
import type { Order } from '@showtix/shared-types';
import './index.scss';

export default function OrdersPage() {
  const first = useLoad(() => listOrders(), []);
  const [more, setMore] = useState<Order[]>([]);
  const [next, setNext] = useState<string>();
  // Coming back from an order (paid, cancelled) should show its new state.
  useShownAgain(() => {
    first.reload();
    setMore([]);
    setNext(undefined);
  });
  usePullDownRefresh(() => {
    first.reload();
    stopPullDownRefresh();
  });
  const cursor = next ?? first.data?.next;
  const loadMore = async () => {
    if (!cursor) return;
    const page = await listOrders(cursor);
    setMore((m) => [...m, ...page.items]);
    setNext(page.next ?? '');
  };
  const orders = [...(first.data?.items ?? []), ...more];
  return (
    <View className="page page--tabbed orders">
      <ScrollView scrollY className="orders__list">
        <FirstLoad loaded={first} />
        {first.data && orders.length === 0 ? (
          <Empty text="还没有订单，去看看热门演出吧">
            <Button className="btn btn--primary" onClick={() => switchTab('home')}>
              去逛逛
            </Button>
          </Empty>
        ) : null}
        {orders.map((o) => (
          <OrderCard key={o.orderNo} order={o} onOpen={() => go('order', { orderNo: o.orderNo })} />
        ))}
        {cursor ? (
          <Button className="btn btn--ghost orders__more" onClick={() => void loadMore()}>
            加载更多
          </Button>
        ) : null}
      </ScrollView>
      <TabBar current="orders" />
    </View>
  );
}
