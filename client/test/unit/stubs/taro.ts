/**
 * A stand-in for @tarojs/taro: storage in a Map, navigation and UI calls recorded as jest mocks,
 * page lifecycle hooks run as effects. Tests set `taro.request` responses and `router.params`.
 */
import { useEffect } from 'react';

const store = new Map<string, unknown>();
export const router: { params: Record<string, string | undefined> } = { params: {} };
export const pages: { route: string }[] = [{ route: 'pages/index/index' }];

/** Network listeners (Taro.onNetworkStatusChange) and the type getNetworkType answers. */
export const network = { type: 'wifi', listeners: new Set<(r: { isConnected: boolean }) => void>() };
export function setNetwork(type: string): void {
  network.type = type;
  for (const cb of network.listeners) cb({ isConnected: type !== 'none' });
}

const taro = {
  request: jest.fn(),
  env: { USER_DATA_PATH: 'wxfile://usr' },
  scanCode: jest.fn(async (): Promise<{ result: string }> => {
    throw new Error('scanCode:fail cancel');
  }),
  vibrateShort: jest.fn(async () => undefined),
  vibrateLong: jest.fn(async () => undefined),
  getNetworkType: jest.fn(async () => ({ networkType: network.type })),
  onNetworkStatusChange: (cb: (r: { isConnected: boolean }) => void) => void network.listeners.add(cb),
  offNetworkStatusChange: (cb: (r: { isConnected: boolean }) => void) => void network.listeners.delete(cb),
  getFileSystemManager: () => ({ writeFileSync: jest.fn() }),
  createInnerAudioContext: jest.fn(() => ({
    src: '',
    obeyMuteSwitch: true,
    play: jest.fn(),
    onEnded: jest.fn(),
    onError: jest.fn(),
    destroy: jest.fn(),
  })),
  login: jest.fn(async () => ({ code: 'wx-code-1', errMsg: 'login:ok' })),
  requestPayment: jest.fn(async () => ({ errMsg: 'requestPayment:ok' })),
  getStorageSync: (key: string) => (store.has(key) ? store.get(key) : ''),
  setStorageSync: (key: string, value: unknown) => void store.set(key, value),
  removeStorageSync: (key: string) => void store.delete(key),
  showToast: jest.fn(async () => undefined),
  setClipboardData: jest.fn(async () => undefined),
  showModal: jest.fn(async () => ({ confirm: true, cancel: false })),
  navigateTo: jest.fn(async () => undefined),
  redirectTo: jest.fn(async () => undefined),
  reLaunch: jest.fn(async () => undefined),
  navigateBack: jest.fn(async () => undefined),
  getCurrentPages: () => pages,
  nextTick: (fn: () => void) => setTimeout(fn, 0),
  getSystemInfoSync: () => ({ windowWidth: 375, windowHeight: 667, pixelRatio: 2 }),
  createSelectorQuery: () => ({
    select: () => ({ fields: () => ({ exec: (cb: (r: unknown[]) => void) => cb([null]) }) }),
  }),
};

export function resetTaro(): void {
  store.clear();
  router.params = {};
  pages.splice(0, pages.length, { route: 'pages/index/index' });
  taro.request.mockReset();
  network.type = 'wifi';
  network.listeners.clear();
}

export const useRouter = () => router;
export const useDidShow = (fn: () => void) => useEffect(() => fn(), []); // eslint-disable-line react-hooks/exhaustive-deps
export const useDidHide = (_fn: () => void) => undefined;
export const usePullDownRefresh = (_fn: () => void) => undefined;
export const stopPullDownRefresh = () => undefined;
/** What the page would share: the last handler registered. */
export const share: { handler?: () => { title?: string; path?: string } } = {};
export const useShareAppMessage = (fn: () => { title?: string; path?: string }) => void (share.handler = fn);
export default taro;
