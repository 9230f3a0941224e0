import { Text, View } from '@tarojs/components';
import { TABS, switchTab, type RouteName } from '../routes';
import { decorative, tapTarget } from '../utils/a11y';

const ICONS: Record<string, string> = { home: '♪', tickets: '▤', orders: '≡', me: '☺' };

/** Bottom navigation of the three top-level pages (drawn by us: no icon assets needed). */
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
          <Text className="tabbar__icon" {...decorative}>
            {ICONS[t.route]}
          </Text>
          <Text className="tabbar__text">{t.text}</Text>
        </View>
      ))}
    </View>
  );
}
