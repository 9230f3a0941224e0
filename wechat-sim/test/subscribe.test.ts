import { startSimulator, Simulator, testKeys } from '../src';

async function postJson(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

const FAN = 'oFanSubscribeAAAAAAAAAAAAAAA';

describe('subscribe messages need the fan consent (one-time subscriptions)', () => {
  let sim: Simulator;
  let token: string;
  const data = {
    thing1: { value: '测试演出' },
    character_string2: { value: '202605010001' },
    thing3: { value: '支付成功' },
    time4: { value: '2026-05-01 19:30' },
  };
  const send = (over: Record<string, unknown> = {}) =>
    postJson(`${sim.url}/cgi-bin/message/subscribe/send?access_token=${token}`, {
      touser: FAN,
      template_id: 'TPL_PAID',
      page: 'pages/orders/index',
      data,
      ...over,
    }).then((r) => r.json);

  beforeAll(async () => {
    sim = await startSimulator();
    const q = new URLSearchParams({
      grant_type: 'client_credential',
      appid: testKeys.appid,
      secret: testKeys.appSecret,
    });
    token = ((await (await fetch(`${sim.url}/cgi-bin/token?${q}`)).json()) as any).access_token;
  });
  afterAll(() => sim.close());
  afterEach(() => sim.resetFaults());

  it('answers 43101 to a fan who never accepted the template, and records nothing', async () => {
    const answer = await send();
    expect(answer).toMatchObject({
      errcode: 43101,
      errmsg: expect.stringMatching(/^user refuse to accept the msg/),
    });
    expect(sim.messages()).toHaveLength(0);
  });

  it('lets one accept send one message, then answers 43101 again', async () => {
    const consent = await postJson(`${sim.url}/sim/subscribe`, {
      openid: FAN,
      tmplIds: ['TPL_PAID', 'TPL_TICKETED'],
      answers: { TPL_PAID: 'accept', TPL_TICKETED: 'reject' },
    });
    expect(consent.status).toBe(200);
    expect(consent.json).toEqual({
      errMsg: 'requestSubscribeMessage:ok',
      TPL_PAID: 'accept',
      TPL_TICKETED: 'reject',
    });
    expect(sim.consents(FAN, 'TPL_PAID')).toBe(1);
    expect(await send()).toMatchObject({ errcode: 0, errmsg: 'ok', msgid: expect.any(Number) });
    expect(await send()).toMatchObject({ errcode: 43101 });
    // A rejected template gave no consent.
    expect(await send({ template_id: 'TPL_TICKETED' })).toMatchObject({ errcode: 43101 });
    // Two accepts: two sends.
    sim.subscribe(FAN, ['TPL_PAID']);
    sim.subscribe(FAN, ['TPL_PAID']);
    expect((await send()).errcode).toBe(0);
    expect((await send()).errcode).toBe(0);
    expect((await send()).errcode).toBe(43101);
    expect(sim.messages().filter((m) => m.touser === FAN)).toHaveLength(3);
    const state = await (await fetch(`${sim.url}/sim/subscriptions?openid=${FAN}`)).json();
    expect(state).toEqual({ openid: FAN, remaining: { TPL_PAID: 0 } });
  });

  it('refuses an unknown template (40037), bad data (47003) and a bad openid (40003) without spending consent', async () => {
    sim.subscribe(FAN, ['TPL_REFUND']);
    expect((await send({ template_id: 'TPL_NOT_OURS' })).errcode).toBe(40037);
    expect((await send({ template_id: 'TPL_REFUND', data: { thing1: { value: 'x' } } })).errcode).toBe(47003);
    expect(
      (await send({ template_id: 'TPL_REFUND', data: { ...data, thing1: { value: '一'.repeat(21) } } }))
        .errcode,
    ).toBe(47003);
    expect(
      (await send({ template_id: 'TPL_REFUND', data: { ...data, extra5: { value: 'x' } } })).errcode,
    ).toBe(47003);
    expect((await send({ template_id: 'TPL_REFUND', touser: '' })).errcode).toBe(40003);
    expect((await send({ template_id: 'TPL_REFUND', touser: 'not an openid!' })).errcode).toBe(40003);
    expect(sim.consents(FAN, 'TPL_REFUND')).toBe(1);
    expect((await send({ template_id: 'TPL_REFUND' })).errcode).toBe(0);
  });

  it('refuses to ask for unknown templates or more than three at once (the fan sees no dialog)', async () => {
    const unknown = await postJson(`${sim.url}/sim/subscribe`, { openid: FAN, tmplIds: ['TPL_NOPE'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ ok: false, code: '20001' });
    const many = await postJson(`${sim.url}/sim/subscribe`, {
      openid: FAN,
      tmplIds: ['TPL_PAID', 'TPL_TICKETED', 'TPL_REFUND', 'TPL_REMINDER'],
    });
    expect(many.json).toMatchObject({ ok: false, code: '20003' });
    const noOpenid = await postJson(`${sim.url}/sim/subscribe`, { tmplIds: ['TPL_PAID'] });
    expect(noOpenid.json).toMatchObject({ ok: false, code: 'BAD_OPENID' });
    const badAnswer = await postJson(`${sim.url}/sim/subscribe`, {
      openid: FAN,
      tmplIds: ['TPL_REMINDER'],
      answers: { TPL_REMINDER: 'maybe' },
    });
    expect(badAnswer.json).toMatchObject({ ok: false, code: 'BAD_ANSWER' });
    expect(sim.consents(FAN, 'TPL_REMINDER')).toBe(0);
  });

  it('answers as the subscribeAnswer fault says when the request gives no answers (the H5 stand-in)', async () => {
    sim.setFaults({ subscribeAnswer: 'reject' });
    expect(sim.subscribe(FAN, ['TPL_SESSION_CHANGED'])).toMatchObject({ TPL_SESSION_CHANGED: 'reject' });
    expect(sim.consents(FAN, 'TPL_SESSION_CHANGED')).toBe(0);
    sim.resetFaults();
    expect(sim.subscribe(FAN, ['TPL_SESSION_CHANGED'])).toMatchObject({ TPL_SESSION_CHANGED: 'accept' });
    expect(sim.consents(FAN, 'TPL_SESSION_CHANGED')).toBe(1);
    // the subscribeRefused fault refuses even with consent, and spends nothing
    sim.setFaults({ subscribeRefused: true });
    expect((await send({ template_id: 'TPL_SESSION_CHANGED' })).errcode).toBe(43101);
    expect(sim.consents(FAN, 'TPL_SESSION_CHANGED')).toBe(1);
  });
});
