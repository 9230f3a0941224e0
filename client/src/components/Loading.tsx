import { Text, View } from '@tarojs/components';
import Icon from './icon/Icon';

export default function Loading({ text = '加载中…' }: { text?: string }) {
  return (
    <View className="loading">
      <View className="loading__dot" />
      <Text className="loading__text">{text}</Text>
    </View>
  );
}

export function Empty({ text, children }: { text: string; children?: React.ReactNode }) {
  return (
    <View className="empty">
      <View className="empty__icon">
        <Icon name="ticket" color="ink3" size="xl" />
      </View>
      <Text className="empty__text">{text}</Text>
      {children}
    </View>
  );
}
