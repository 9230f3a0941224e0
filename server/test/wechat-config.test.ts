import { loadWechatConfig } from '../src/config/wechat';

/** Loads the WeChat settings as development does and returns them with the problems found. */
function load(env: NodeJS.ProcessEnv) {
  const problems: string[] = [];
  const config = loadWechatConfig(env, { dev: true, port: 3000, problems });
  return { config, problems };
}

describe('WeChat configuration: the mini-program AppID', () => {
  it('refuses to start when the mini-program is built for another AppID than WECHAT_APPID', () => {
    const { problems } = load({ WECHAT_APPID: 'wx1111111111111111', TARO_APP_ID: 'wx2222222222222222' });
    expect(problems.join('\n')).toMatch(
      /TARO_APP_ID \(wx2222222222222222.*differs from WECHAT_APPID \(wx1111111111111111\)/,
    );
  });

  it('starts when they agree or only one is set', () => {
    const same = load({ WECHAT_APPID: 'wx1111111111111111', TARO_APP_ID: 'wx1111111111111111' });
    expect(same.problems).toEqual([]);
    expect(same.config.appid).toBe('wx1111111111111111');
    const onlyTaro = load({ TARO_APP_ID: 'wx2222222222222222' });
    expect(onlyTaro.problems).toEqual([]);
    expect(onlyTaro.config.appid).toMatch(/^wx/);
    expect(load({ WECHAT_APPID: 'wx1111111111111111' }).config.appid).toBe('wx1111111111111111');
  });
});
