import { Button, ScrollView, Text, View } from '@tarojs/components';
import { stopPullDownRefresh, usePullDownRefresh, useRouter } from '@tarojs/taro';
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
import { tapTarget } from '../../utils/a11y';
import './index.scss';

/** The status tabs of 我的订单 (the same as 我的's shortcuts); '' is every order. */
const FILTERS: { status: string; text: string }[] = [
  { status: '', text: '全部' },
  { status: 'pending', text: '待支付' },
  { status: 'paid', text: '待出票' },
  { status: 'ticketed', text: '已出票' },
  { status: 'refunded', text: '退款' },
];

function Filters({ current }: { current: string }) {
  return (
    <View className="orders__filters">
      {FILTERS.map((f) => (
        <View
          key={f.status || 'all'}
          className={`orders__filter${f.status === current ? ' orders__filter--on' : ''}`}
          data-testid="orders-filter"
          onClick={() => f.status !== current && switchTab('orders', { status: f.status })}
          {...tapTarget({ pressed: f.status === current })}
        >
          <Text>{f.text}</Text>
        </View>
      ))}
    </View>
  );
}

export default function OrdersPage() {
  const asked = useRouter().params.status ?? '';
  const status = FILTERS.some((f) => f.status === asked) ? asked : '';
  const first = useLoad(() => listOrders(undefined, status || undefined), [status]);
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
    const page = await listOrders(cursor, status || undefined);
    setMore((m) => [...m, ...page.items]);
    setNext(page.next ?? '');
  };
  const orders = [...(first.data?.items ?? []), ...more];
  return (
    <View className="page page--tabbed orders">
      <Filters current={status} />
      <ScrollView scrollY className="orders__list">
        <FirstLoad loaded={first} />
        {first.data && orders.length === 0 ? (
          <Empty text={status ? '没有该状态的订单' : '还没有订单，去看看热门演出吧'}>
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
