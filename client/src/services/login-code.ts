import Taro from '@tarojs/taro';
import { ApiError } from './errors';

/** In WeChat the login code comes from wx.login. (login-code.h5.ts is the browser's variant.) */
export async function getLoginCode(): Promise<string> {
  try {
    const res = await Taro.login();
    if (res.code) return res.code;
  } catch {
    // fall through to the error below
  }
  throw new ApiError({ code: 'UNAUTHORIZED', status: 0, message: '微信登录失败，请重试' });
}
