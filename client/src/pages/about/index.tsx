import { ScrollView, Text, View } from '@tarojs/components';
import './index.scss';

const SECTIONS: { title: string; lines: string[] }[] = [
  {
    title: '关于秀票',
    lines: ['秀票是开源的演出票务小程序：在线选座、实名购票、电子票入场。', '票款由主办方通过微信支付收取。'],
  },
  {
    title: '购票协议',
    lines: [
      '下单后座位为您保留一段时间，超时未支付订单自动取消。',
      '实名制演出一人一证一票，入场时核验证件，证件须与订单观演人一致。',
      '退票按各演出页面公布的退票规则办理，手续费以提交退票时的规则为准。',
      '演出取消或延期时，以主办方公告为准，可按公告办理退票。',
    ],
  },
  {
    title: '隐私说明',
    lines: [
      '我们使用微信登录标识识别您的账号，不获取您的微信昵称与头像。',
      '观演人证件号码加密保存，页面与订单中仅显示打码后的号码。',
      '联系手机仅用于主办方联系您处理订单问题。',
    ],
  },
];

/** 关于与协议: what the app is and the terms a fan agrees to by buying. */
export default function AboutPage() {
  return (
    <View className="page about">
      <ScrollView scrollY className="about__scroll">
        {SECTIONS.map((s) => (
          <View key={s.title} className="card" data-testid="about-section">
            <Text className="card__title">{s.title}</Text>
            {s.lines.map((l) => (
              <Text key={l} className="about__line">
                {l}
              </Text>
            ))}
          </View>
        ))}
      </ScrollView>
    </View>
  );
}
