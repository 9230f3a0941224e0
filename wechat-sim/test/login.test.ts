import { startSimulator, Simulator, testKeys } from '../src';

async function getJson(url: string): Promise<{ status: number; type: string | null; json: any }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), json: JSON.parse(await res.text()) };
}

async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
}

describe('mini-program login and subscribe messages', () => {
  let sim: Simulator;
  const session = (code: string, over: Record<string, string> = {}) => {
    const q = new URLSearchParams({
      appid: testKeys.appid,
      secret: testKeys.appSecret,
      js_code: code,
      grant_type: 'authorization_code',
      ...over,
    });
    return getJson(`${sim.url}/sns/jscode2session?${q}`);
  };

  beforeAll(async () => {
    sim = await startSimulator({ codeTtlMs: 300 });
  });
  afterAll(() => sim.close());

  it('exchanges a code once for {openid, session_key}; a reused code is refused', async () => {
    const { json: login } = await postJson(`${sim.url}/sim/login`, {});
    expect(login.code).toMatch(/^[\w-]{32}$/);
    const first = await session(login.code);
    expect(first.status).toBe(200);
    expect(first.type).toMatch(/^text\/plain/); // as WeChat answers
    expect(first.json).toEqual({ openid: login.openid, session_key: expect.any(String) });
    expect(Buffer.from(first.json.session_key, 'base64')).toHaveLength(16);
    expect(first.json.openid).toMatch(/^o[\w-]{27}$/);
    const reused = await session(login.code);
    expect(reused.json.errcode).toBe(40163);
  });

  it('answers CORS on /sim/login so the H5 build can ask for a code from the browser', async () => {
    const pre = await fetch(`${sim.url}/sim/login`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');
    const res = await fetch(`${sim.url}/sim/login`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:3000', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    // the WeChat APIs themselves are not browser endpoints
    const wx = await fetch(`${sim.url}/sns/jscode2session`, { headers: { origin: 'http://127.0.0.1:3000' } });
    expect(wx.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps a given openid stable and returns a given unionid', async () => {
    const a = await postJson(`${sim.url}/sim/login`, {
      openid: 'oFanAAAAAAAAAAAAAAAAAAAAAAAA',
      unionid: 'oUnion1',
    });
    const b = await postJson(`${sim.url}/sim/login`, { openid: 'oFanAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(a.json.code).not.toBe(b.json.code);
    expect((await session(a.json.code)).json).toMatchObject({
      openid: 'oFanAAAAAAAAAAAAAAAAAAAAAAAA',
      unionid: 'oUnion1',
    });
    expect((await session(b.json.code)).json.openid).toBe('oFanAAAAAAAAAAAAAAAAAAAAAAAA');
  });

  it('refuses unknown and expired codes with 40029', async () => {
    expect((await session('not-a-code')).json.errcode).toBe(40029);
    const { code } = sim.login();
    await new Promise((r) => setTimeout(r, 350));
    const expired = await session(code);
    expect(expired.json).toMatchObject({ errcode: 40029, errmsg: expect.stringMatching(/^invalid code/) });
  });

  it('refuses a wrong appid (40013), secret (40125) or grant_type', async () => {
    const { code } = sim.login();
    expect((await session(code, { appid: 'wx0000000000000000' })).json.errcode).toBe(40013);
    expect((await session(code, { secret: 'nope' })).json.errcode).toBe(40125);
    expect((await session(code, { grant_type: 'password' })).json.errcode).toBe(40002);
    // A refused attempt does not burn the code.
    expect((await session(code)).json.openid).toBeDefined();
  });

  it('issues access tokens and records subscribe messages', async () => {
    const q = new URLSearchParams({
      grant_type: 'client_credential',
      appid: testKeys.appid,
      secret: testKeys.appSecret,
    });
    const token = await getJson(`${sim.url}/cgi-bin/token?${q}`);
    expect(token.json).toEqual({ access_token: expect.any(String), expires_in: 7200 });
    const bad = await getJson(
      `${sim.url}/cgi-bin/token?${new URLSearchParams({ grant_type: 'client_credential', appid: testKeys.appid, secret: 'x' })}`,
    );
    expect(bad.json.errcode).toBe(40125);
    const stable = await postJson(`${sim.url}/cgi-bin/stable_token`, {
      grant_type: 'client_credential',
      appid: testKeys.appid,
      secret: testKeys.appSecret,
    });
    expect(stable.json.expires_in).toBe(7200);

    const message = {
      touser: 'oFanAAAAAAAAAAAAAAAAAAAAAAAA',
      template_id: 'TPL_TICKETED',
      page: 'pages/tickets/index',
      miniprogram_state: 'developer',
      lang: 'zh_CN',
      data: {
        thing1: { value: '测试演出' },
        character_string2: { value: '202605010001' },
        thing3: { value: '出票成功' },
        time4: { value: '2026-05-01 19:30' },
      },
    };
    const send = (accessToken: string, body: unknown = message) =>
      postJson(
        `${sim.url}/cgi-bin/message/subscribe/send?access_token=${encodeURIComponent(accessToken)}`,
        body,
        {},
      );
    sim.subscribe(message.touser, ['TPL_TICKETED']);
    const ok = await send(token.json.access_token);
    expect(ok.json).toMatchObject({ errcode: 0, errmsg: 'ok' });
    expect((await send('bogus')).json.errcode).toBe(40001);
    expect((await send(token.json.access_token, { ...message, touser: '' })).json.errcode).toBe(40003);
    sim.subscribe(message.touser, ['TPL_TICKETED']);
    sim.setFaults({ subscribeRefused: true });
    expect((await send(token.json.access_token)).json.errcode).toBe(43101);
    sim.resetFaults();

    const listed = await getJson(`${sim.url}/sim/messages`);
    expect(listed.json.items).toHaveLength(1);
    expect(listed.json.items[0]).toMatchObject({
      touser: message.touser,
      template_id: message.template_id,
      data: message.data,
    });
    expect(sim.messages()).toHaveLength(1);
  });
});
