import { ScrollView, Text, View } from '@tarojs/components';
import Icon from '../../components/icon/Icon';
import type { IconName } from '../../components/icon/icons';
import ServiceEntry from '../../components/ServiceEntry';
import TabBar from '../../components/TabBar';
import { MyWaitlist } from '../../components/Waitlist';
import { MySaleReminders } from '../../components/SaleReminders';
import { useLoad } from '../../hooks/useLoad';
import { useShownAgain } from '../../hooks/useShownAgain';
import { go, switchTab, type RouteName } from '../../routes';
import { listOrders } from '../../services/orders';
import { staffMe } from '../../services/staff-me';
import { tapTarget } from '../../utils/a11y';
import './index.scss';

function Item(props: { icon: IconName; text: string; sub?: string; testid: string; onTap: () => void }) {
  return (
    <View className="me-item" data-testid={props.testid} onClick={props.onTap} {...tapTarget()}>
      <Icon name={props.icon} color="ink2" className="me-item__icon" />
      <Text className="me-item__text">{props.text}</Text>
      {props.sub ? <Text className="me-item__sub">{props.sub}</Text> : null}
      <Icon name="chevron-right" color="ink3" size="sm" />
    </View>
  );
}

/** 订单 shortcuts: each opens 我的订单 narrowed to that status (GET /orders?status=). */
export const ORDER_SHORTCUTS: { status: string; text: string; icon: IconName }[] = [
  { status: 'pending', text: '待支付', icon: 'wallet' },
  { status: 'paid', text: '待出票', icon: 'clock' },
  { status: 'ticketed', text: '已出票', icon: 'ticket' },
  { status: 'refunded', text: '退款', icon: 'refund' },
];

function OrderShortcuts({ pending }: { pending: number }) {
  return (
    <View className="card me__orders">
      <View
        className="me__orders-head"
        data-testid="me-orders"
        onClick={() => switchTab('orders')}
        {...tapTarget()}
      >
        <Text className="card__title">我的订单</Text>
        <Text className="me-item__sub">全部订单</Text>
        <Icon name="chevron-right" color="ink3" size="sm" />
      </View>
      <View className="me__shortcuts">
        {ORDER_SHORTCUTS.map((s) => (
          <View
            key={s.status}
            className="me__shortcut"
            data-testid={`me-orders-${s.status}`}
            onClick={() => switchTab('orders', { status: s.status })}
            {...tapTarget()}
          >
            <Icon name={s.icon} color="ink" size="lg" />
            <Text className="me__shortcut-text">{s.text}</Text>
            {s.status === 'pending' && pending > 0 ? (
              <Text className="me__count" data-testid="me-pending-count">
                {pending > 99 ? '99+' : pending}
              </Text>
            ) : null}
          </View>
        ))}
      </View>
    </View>
  );
}

/** An entry of a group: the page it opens (`tab`: a tab page, switched to rather than opened). */
type Entry = { icon: IconName; text: string; sub: string; testid: string; to: RouteName; tab?: true };

/** The fan's tickets: the wallet, saved attendees, and complimentary tickets to claim. */
const TICKET_ENTRIES: Entry[] = [
  { icon: 'ticket', text: '我的票夹', sub: '电子票入场', testid: 'me-tickets', to: 'tickets', tab: true },
  { icon: 'people', text: '常用观演人', sub: '实名购票时直接选择', testid: 'me-attendees', to: 'attendees' },
  { icon: 'ticket', text: '领取赠票', sub: '输入主办方给的领取码', testid: 'me-comp', to: 'comp' },
];

const ABOUT: Entry = {
  icon: 'doc',
  text: '关于与协议',
  sub: '购票协议、隐私说明',
  testid: 'me-about',
  to: 'about',
};

/** Gate staff's tools: the scan desk once a show is assigned, and redeeming an invite code. */
function staffEntries(shows: number): Entry[] {
  const invite: Entry = {
    icon: 'info',
    text: '工作人员邀请码',
    sub: '主办方邀请检票时使用',
    testid: 'me-staff-invite',
    to: 'staffInvite',
  };
  if (!shows) return [invite];
  const sub = `可检 ${shows} 个演出`;
  return [{ icon: 'scan', text: '检票工作台', sub, testid: 'me-staff-scan', to: 'staffScan' }, invite];
}

function Group({ entries }: { entries: Entry[] }) {
  return (
    <View className="card me__group">
      {entries.map((e) => (
        <Item key={e.testid} {...e} onTap={() => (e.tab ? switchTab(e.to) : go(e.to))} />
      ))}
    </View>
  );
}

/** 我的: the fan's account, orders by status, tickets, attendees, help; gate staff's tools. */
export default function MePage() {
  const staff = useLoad(staffMe, []);
  const pending = useLoad(() => listOrders(undefined, 'pending'), []);
  useShownAgain(() => (staff.reload(), pending.reload()));
  const shows = staff.data?.shows ?? [];
  return (
    <View className="page page--tabbed me">
      <ScrollView scrollY className="me__scroll">
        <View className="me__hero">
          <View className="me__avatar">
            <Icon name="user" color="white" size="xl" />
          </View>
          <View className="me__who">
            <Text className="me__name">微信用户</Text>
            <Text className="me__hint">使用微信账号购票与入场</Text>
          </View>
        </View>
        <OrderShortcuts pending={pending.data?.items.length ?? 0} />
        <MyWaitlist />
        <MySaleReminders />
        <Group entries={TICKET_ENTRIES} />
        <View className="card me__group">
          <ServiceEntry className="me-item" testid="me-service">
            <Icon name="service" color="ink2" className="me-item__icon" />
            <Text className="me-item__text">联系客服</Text>
            <Text className="me-item__sub">9:00–21:00</Text>
            <Icon name="chevron-right" color="ink3" size="sm" />
          </ServiceEntry>
          <Item {...ABOUT} onTap={() => go(ABOUT.to)} />
        </View>
        <Group entries={staffEntries(shows.length)} />
      </ScrollView>
      <TabBar current="me" />
    </View>
  );
}
