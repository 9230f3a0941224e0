import { loadWechatConfig } from '../src/config/wechat';

describe('WeChat configuration: the mini-program AppID', () => {
  it('refuses to start when the mini-program is built for another AppID than WECHAT_APPID', () => {
    const env = { WECHAT_APPID: 'wx1111111111111111', TARO_APP_ID: 'wx2222222222222222' };
    expect(() => loadWechatConfig(env, false, 3000)).toThrow(
      /TARO_APP_ID \(wx2222222222222222.*differs from WECHAT_APPID \(wx1111111111111111\)/,
    );
  });

  it('starts when they agree or only one is set', () => {
    const same = { WECHAT_APPID: 'wx1111111111111111', TARO_APP_ID: 'wx1111111111111111' };
    expect(loadWechatConfig(same, false, 3000).appid).toBe('wx1111111111111111');
    expect(loadWechatConfig({ TARO_APP_ID: 'wx2222222222222222' }, false, 3000).appid).toMatch(/^wx/);
    expect(loadWechatConfig({ WECHAT_APPID: 'wx1111111111111111' }, false, 3000).appid).toBe(
      'wx1111111111111111',
    );
  });
});
