import Taro from '@tarojs/taro';
import { apiBase } from './config';
import { deviceId } from './device';
import { ApiError } from './errors';
import { getLoginCode } from './login-code';
import { KEYS, readString, remove, write } from './storage';
import type { WxLoginResponse } from '@showtix/shared-types';

/**
 * Fan login: a WeChat login code (Taro.login, or the simulator in H5) is traded for the API's
 * token at POST /api/v1/auth/wx-login. The token is kept in storage and sent as a bearer token.
 * Concurrent callers share one login in flight.
 */
let inFlight: Promise<string> | null = null;

export function currentToken(): string | undefined {
  return readString(KEYS.token);
}

export function logout(): void {
  remove(KEYS.token);
}

async function exchange(code: string): Promise<string> {
  let res: Taro.request.SuccessCallbackResult<WxLoginResponse>;
  try {
    res = await Taro.request<WxLoginResponse>({
      url: `${apiBase()}/api/v1/auth/wx-login`,
      method: 'POST',
      data: { code },
      header: { 'content-type': 'application/json', 'X-Device-Id': deviceId() },
      dataType: 'json',
    });
  } catch {
    throw new ApiError({ code: 'NETWORK', status: 0, message: '网络不给力，请检查网络后重试' });
  }
  if (res.statusCode !== 200 && res.statusCode !== 201) {
    throw new ApiError({ code: 'UNAUTHORIZED', status: res.statusCode, message: '登录失败，请重试' });
  }
  const token = res.data?.token;
  if (typeof token !== 'string' || token === '')
    throw new ApiError({ code: 'UNAUTHORIZED', status: res.statusCode, message: '登录失败，请重试' });
  return token;
}

export function login(): Promise<string> {
  if (!inFlight) {
    inFlight = (async () => {
      const token = await exchange(await getLoginCode());
      write(KEYS.token, token);
      return token;
    })().finally(() => {
      inFlight = null;
    });
  }
  return inFlight;
}

export async function ensureToken(): Promise<string> {
  return currentToken() ?? login();
}

export async function authHeader(): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${await ensureToken()}` };
}

/** Drops a token the server refused and logs in again. */
export async function relogin(): Promise<string> {
  logout();
  return login();
}
