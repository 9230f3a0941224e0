import { Text, View } from '@tarojs/components';

/** 入场须知 printed on every e-ticket; real-name tickets add the ID rule the gate applies. */
export function entryNotes(realName: boolean): string[] {
  return [
    '凭本人手机出示动态二维码入场，二维码每 20 秒刷新，截图、录屏无效',
    ...(realName ? ['实名票：请携带购票时登记的本人有效证件原件，票、证、人一致方可入场'] : []),
    '每张票限一人一次入场，检票后离场不可再次入场',
    '请勿携带易燃易爆等危险品及专业摄录设备，请配合安检',
  ];
}

export default function EntryNotice({ realName }: { realName: boolean }) {
  return (
    <View className="entry-notice" data-testid="entry-notice">
      <Text className="entry-notice__title">入场须知</Text>
      {entryNotes(realName).map((n) => (
        <Text key={n} className="entry-notice__item">
          · {n}
        </Text>
      ))}
    </View>
  );
}
