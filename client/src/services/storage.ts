import Taro from '@tarojs/taro';

/** Typed wrappers over Taro storage (localStorage in H5, wx storage in WeChat). */
export const KEYS = {
  token: 'showtix.token',
  openid: 'showtix.openid',
  draft: 'showtix.draft',
  /** A random id of this phone, sent as X-Device-Id (per-device limits and risk flags). */
  deviceId: 'showtix.deviceId',
  /** Last ticket list, for the wallet without a network. */
  tickets: 'showtix.tickets',
  /** The 联系手机 of the fan's last order: 确认订单 starts from it. */
  contactPhone: 'showtix.contactPhone',
  /** H5 development only: another WeChat simulator than the one fixed at build time. */
  wxSimUrl: 'showtix.wxSimUrl',
  /** The server's subscribe-message template ids, to ask for consent at once on a tap. */
  noticeTemplates: 'showtix.noticeTemplates',
} as const;

export function readString(key: string): string | undefined {
  try {
    const v: unknown = Taro.getStorageSync(key);
    return typeof v === 'string' && v !== '' ? v : undefined;
  } catch {
    return undefined;
  }
}

export function readJson<T>(key: string): T | undefined {
  const raw = readString(key);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export function write(key: string, value: string): void {
  Taro.setStorageSync(key, value);
}

export function remove(key: string): void {
  Taro.removeStorageSync(key);
}
