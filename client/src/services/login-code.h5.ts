import Taro from '@tarojs/taro';
import { wxSimUrl } from './config';
import { ApiError } from './errors';
import { KEYS, readString, write } from './storage';
import { randomId } from '../utils/random';

/**
 * Browsers have no wx.login: the H5 build asks the WeChat simulator for the code wx.login would
 * give. The openid is kept per browser so the same browser stays the same fan.
 */
export function browserOpenid(): string {
  let openid = readString(KEYS.openid);
  if (!openid) {
    openid = randomId('h5');
    write(KEYS.openid, openid);
  }
  return openid;
}

export async function getLoginCode(): Promise<string> {
  try {
    const res = await Taro.request<{ code?: string }>({
      url: `${wxSimUrl()}/sim/login`,
      method: 'POST',
      data: { openid: browserOpenid() },
      header: { 'content-type': 'application/json' },
      dataType: 'json',
    });
    if (res.statusCode === 200 && typeof res.data?.code === 'string') return res.data.code;
  } catch {
    // fall through to the error below
  }
  throw new ApiError({ code: 'UNAUTHORIZED', status: 0, message: '登录服务不可用，请稍后重试' });
}
