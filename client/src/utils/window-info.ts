import Taro from '@tarojs/taro';

/**
 * The window's size and pixel ratio from Taro.getWindowInfo (WeChat deprecated the all-in-one
 * system info call in base library 2.20.1, where getWindowInfo and getDeviceInfo appeared; H5 has
 * them too).
 */
export function windowInfo(): { windowWidth: number; windowHeight: number; pixelRatio: number } {
  const info = Taro.getWindowInfo();
  return { windowWidth: info.windowWidth, windowHeight: info.windowHeight, pixelRatio: info.pixelRatio || 2 };
}
