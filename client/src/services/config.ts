import { KEYS, readString } from './storage';

/**
 * Where the client finds the API. H5 is served by the API server itself, so it calls its own
 * origin; the mini-program needs an absolute base, fixed at build time (TARO_APP_API_BASE).
 */
export function apiBase(): string {
  if (process.env.TARO_ENV === 'h5') return '';
  return process.env.TARO_APP_API_BASE || 'http://127.0.0.1:3000';
}

/**
 * A file the server serves (an uploaded poster is '/uploads/…'): the mini-program has no page
 * origin, so a path is made absolute against the API base; H5 keeps it as it is.
 */
export function assetUrl(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${apiBase()}${url}` : url;
}

/**
 * The WeChat simulator that hands out login codes to the H5 build (never used in WeChat): fixed
 * at build time (TARO_APP_WX_SIM_URL), or for one browser by storage key `showtix.wxSimUrl`
 * (a simulator on another port, e.g. the browser tests' own, without rebuilding).
 */
export function wxSimUrl(): string {
  return readString(KEYS.wxSimUrl) || process.env.TARO_APP_WX_SIM_URL || 'http://127.0.0.1:3100';
}

/**
 * The AppID this build runs as (TARO_APP_ID at build time). WeChat knows it itself; the H5
 * stand-in for wx.requestPayment tells the simulator, which refuses a prepay made for another app.
 */
export function appId(): string | undefined {
  return process.env.TARO_APP_ID || undefined;
}
