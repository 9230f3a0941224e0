import { Button, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { tapTarget } from '../utils/a11y';
import Icon from './icon/Icon';

const WEAPP = process.env.TARO_ENV === 'weapp';

/** Where the browser build sends the fan, since only WeChat has the 客服 conversation. */
export const SERVICE_HINT =
  '在线客服 9:00–21:00。请在微信中打开秀票小程序，点「联系客服」与我们对话；咨询订单请提供订单号。';

/**
 * 联系客服: in WeChat a button with open-type "contact" opens the mini-program's customer service
 * chat (WeChat's own, no server of ours); the browser build says how to reach it.
 */
export default function ServiceEntry(props: {
  className: string;
  testid: string;
  children: React.ReactNode;
}) {
  if (WEAPP)
    return (
      <Button className={`service-entry ${props.className}`} openType="contact" data-testid={props.testid}>
        {props.children}
      </Button>
    );
  const open = () => void Taro.showModal({ title: '联系客服', content: SERVICE_HINT, showCancel: false });
  return (
    <View className={props.className} data-testid={props.testid} onClick={open} {...tapTarget()}>
      {props.children}
    </View>
  );
}

/** The compact 客服 entry of a bottom bar: an icon over its word. */
export function ServiceBarItem() {
  return (
    <ServiceEntry className="bar-icon" testid="service-entry">
      <Icon name="service" color="ink2" />
      <Text className="bar-icon__text">客服</Text>
    </ServiceEntry>
  );
}
