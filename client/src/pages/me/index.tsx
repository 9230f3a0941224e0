import { ScrollView, Text, View } from '@tarojs/components';
import TabBar from '../../components/TabBar';
import { useLoad } from '../../hooks/useLoad';
import { useShownAgain } from '../../hooks/useShownAgain';
import { go, switchTab, type RouteName } from '../../routes';
import { staffMe } from '../../services/staff-me';
import { tapTarget } from '../../utils/a11y';
import './index.scss';

function Item(props: { text: string; sub?: string; testid: string; onTap: () => void }) {
  return (
    <View className="me-item" data-testid={props.testid} onClick={props.onTap} {...tapTarget()}>
      <Text className="me-item__text">{props.text}</Text>
      {props.sub ? <Text className="me-item__sub">{props.sub}</Text> : null}
      <Text className="me-item__arrow">›</Text>
    </View>
  );
}

/** 我的: frequent attendees, orders and tickets, and for gate staff the ticket scanner. */
export default function MePage() {
  const staff = useLoad(staffMe, []);
  useShownAgain(staff.reload);
  const shows = staff.data?.shows ?? [];
  const open = (r: RouteName) => () => go(r);
  return (
    <View className="page page--tabbed me">
      <ScrollView scrollY className="me__scroll">
        <View className="me__hero">
          <Text className="me__avatar">☺</Text>
          <Text className="me__name">微信用户</Text>
        </View>
        <View className="card me__group">
          <Item text="常用观演人" sub="实名购票时直接选择" testid="me-attendees" onTap={open('attendees')} />
          <Item text="我的票夹" testid="me-tickets" onTap={() => switchTab('tickets')} />
          <Item text="我的订单" testid="me-orders" onTap={() => switchTab('orders')} />
        </View>
        <View className="card me__group">
          {shows.length ? (
            <Item
              text="检票工作台"
              sub={`可检 ${shows.length} 个演出`}
              testid="me-staff-scan"
              onTap={open('staffScan')}
            />
          ) : null}
          <Item
            text="工作人员邀请码"
            sub="主办方邀请检票时使用"
            testid="me-staff-invite"
            onTap={open('staffInvite')}
          />
        </View>
      </ScrollView>
      <TabBar current="me" />
    </View>
  );
}
