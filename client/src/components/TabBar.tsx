import { Text, View } from '@tarojs/components';
import { TABS, switchTab, type RouteName } from '../routes';
import { tapTarget } from '../utils/a11y';
import Icon from './icon/Icon';
import type { IconName } from './icon/icons';

const ICONS: Record<string, IconName> = { home: 'home', tickets: 'ticket', orders: 'orders', me: 'user' };

/** Bottom navigation of the top-level pages (drawn by us: a native tabBar needs image files per tab). */
export default function TabBar({ current }: { current: RouteName }) {
  return (
    <View className="tabbar">
      {TABS.map((t) => (
        <View
          key={t.route}
          className={`tabbar__item ${t.route === current ? 'tabbar__item--on' : ''}`}
          onClick={() => t.route !== current && switchTab(t.route)}
          {...tapTarget({ pressed: t.route === current })}
        >
          <Icon name={ICONS[t.route]!} color={t.route === current ? 'brand' : 'ink3'} size="lg" />
          <Text className="tabbar__text">{t.text}</Text>
        </View>
      ))}
    </View>
  );
}
