import { Text, View } from '@tarojs/components';

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
      <Text className="empty__icon">🎫</Text>
      <Text className="empty__text">{text}</Text>
      {children}
    </View>
  );
}
