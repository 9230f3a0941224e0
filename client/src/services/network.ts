import Taro from '@tarojs/taro';

/**
 * Calls `cb` with whether the phone has a network now and at every change; answers the way to
 * stop. network.h5.ts is the browser's variant (navigator.onLine and its events).
 */
export function watchNetwork(cb: (online: boolean) => void): () => void {
  const onChange = (r: { isConnected: boolean }) => cb(r.isConnected);
  try {
    Taro.getNetworkType()
      .then((r) => cb(r.networkType !== 'none'))
      .catch(() => undefined);
    Taro.onNetworkStatusChange(onChange);
  } catch {
    return () => undefined;
  }
  return () => {
    try {
      Taro.offNetworkStatusChange(onChange);
    } catch {
      // older base libraries cannot unsubscribe
    }
  };
}
