import Taro from '@tarojs/taro';
import { wxSimUrl } from './config';
import { browserOpenid } from './login-code.h5';

/**
 * Browsers have no wx.requestSubscribeMessage: the H5 build asks the WeChat simulator, which
 * answers for the fan (its subscribeAnswer fault, 'accept' by default) and records the consent
 * its subscribe/send then checks, as WeChat does.
 */
export async function promptSubscribe(tmplIds: string[]): Promise<Record<string, string>> {
  const res = await Taro.request<Record<string, unknown>>({
    url: `${wxSimUrl()}/sim/subscribe`,
    method: 'POST',
    data: { openid: browserOpenid(), tmplIds },
    header: { 'content-type': 'application/json' },
    dataType: 'json',
    timeout: 5000, // the fan is on the way to paying: never hold them long
  });
  if (res.statusCode !== 200) throw new Error(`requestSubscribeMessage:fail ${res.statusCode}`);
  const out: Record<string, string> = {};
  for (const id of tmplIds) if (typeof res.data?.[id] === 'string') out[id] = res.data[id] as string;
  return out;
}
