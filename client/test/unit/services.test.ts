import { ERRORS } from '@showtix/shared-types';
import taro, { resetTaro } from './stubs/taro';
import { ApiError, errorView, hasAdvice } from '../../src/services/errors';
import { request, retryAfterMs } from '../../src/services/http';
import { createOrder, OrderAttempt } from '../../src/services/orders';
import { getLoginCode, browserOpenid } from '../../src/services/login-code.h5';
import { cashierHref, orderReturnUrl } from '../../src/services/payment.h5';
import { assetUrl } from '../../src/services/config';

type Res = { statusCode: number; data?: unknown; header?: Record<string, string> };
const answer = (...res: Res[]) =>
  res.forEach((r) => taro.request.mockResolvedValueOnce({ header: {}, ...r }));
const fail = (code: string, status: number, header: Record<string, string> = {}) => ({
  statusCode: status,
  data: { error: { code, message: 'x' } },
  header,
});
const sentHeaders = (call: number) => taro.request.mock.calls[call][0].header as Record<string, string>;

beforeEach(() => {
  resetTaro();
  jest.useRealTimers();
});

describe('error codes -> message and way forward', () => {
  it('has a Chinese title, message and action for every code of the shared table', () => {
    for (const code of Object.keys(ERRORS)) {
      expect([code, hasAdvice(code)]).toEqual([code, true]);
      const v = errorView(
        new ApiError({ code: code as keyof typeof ERRORS, status: 409, message: 'server words' }),
      );
      expect(v.title).toMatch(/[\u4e00-\u9fa5]/);
      expect(v.message).toMatch(/[\u4e00-\u9fa5]/);
      expect(v.actionText).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it.each([
    ['SEAT_TAKEN', 'pick_other_seats', '重新选座'],
    ['SOLD_OUT', 'back_to_show', '看看其他场次'],
    ['LIMIT_EXCEEDED', 'adjust_selection', '调整选座'],
    ['NOT_ON_SALE', 'back_to_show', '返回演出详情'],
    ['ORDER_EXPIRED', 'order_again', '重新下单'],
    ['RATE_LIMITED', 'retry_later', '稍后重试'],
    ['UNAUTHORIZED', 'login_again', '重新登录'],
  ] as const)('%s -> %s (%s)', (code, remedy, actionText) => {
    expect(errorView(new ApiError({ code: code, status: 409, message: '' }))).toMatchObject({
      code,
      remedy,
      actionText,
    });
  });

  it('says how long to wait when rate limited, and names network trouble', () => {
    expect(
      errorView(new ApiError({ code: 'RATE_LIMITED', status: 429, message: '', retryAfterMs: 5000 })).message,
    ).toBe('请求过于频繁，请稍后再试（约 5 秒后）');
    expect(errorView(new Error('boom'))).toMatchObject({
      code: 'NETWORK',
      remedy: 'retry',
      title: '网络不给力',
    });
  });
});

describe('the HTTP layer', () => {
  it('turns {error:{code}} answers into ApiError with status', async () => {
    answer(fail('SOLD_OUT', 409));
    await expect(request('/api/v1/x')).rejects.toMatchObject({ code: 'SOLD_OUT', status: 409 });
    expect(taro.request.mock.calls[0][0].url).toBe('/api/v1/x'); // H5: same origin
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs({ 'Retry-After': '7' })).toBe(7000);
    expect(retryAfterMs({ 'retry-after': new Date(Date.now() + 60_000).toUTCString() })).toBeGreaterThan(
      50_000,
    );
    expect(retryAfterMs({})).toBeUndefined();
  });

  it('waits out a short 429 once on a GET, and hands a long one to the page', async () => {
    answer(fail('RATE_LIMITED', 429, { 'Retry-After': '0' }), { statusCode: 200, data: { ok: 1 } });
    await expect(request('/api/v1/shows')).resolves.toEqual({ ok: 1 });
    answer(fail('RATE_LIMITED', 429, { 'Retry-After': '30' }));
    await expect(request('/api/v1/shows')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterMs: 30_000,
    });
    expect(taro.request).toHaveBeenCalledTimes(3);
  });

  it('waits out a shed 503 with Retry-After once, and not a 503 without one', async () => {
    answer(fail('OVERLOADED', 503, { 'Retry-After': '0' }), { statusCode: 200, data: { ok: 1 } });
    await expect(request('/api/v1/sessions/1')).resolves.toEqual({ ok: 1 });
    answer(fail('SERVICE_UNAVAILABLE', 503));
    await expect(request('/api/v1/sessions/1')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(taro.request).toHaveBeenCalledTimes(3);
  });

  it('maps a failed transport to NETWORK', async () => {
    taro.request.mockRejectedValueOnce(new Error('offline'));
    await expect(request('/api/v1/shows')).rejects.toMatchObject({ code: 'NETWORK', status: 0 });
  });

  it('logs in when there is no token, sends it, and logs in again once when it is refused', async () => {
    answer(
      { statusCode: 200, data: { token: 'tok-1', user: { id: '1' } } },
      fail('UNAUTHORIZED', 401),
      { statusCode: 200, data: { token: 'tok-2', user: { id: '1' } } },
      { statusCode: 200, data: { items: [] } },
    );
    await expect(request('/api/v1/orders', { auth: true })).resolves.toEqual({ items: [] });
    expect(taro.request.mock.calls[0][0]).toMatchObject({
      url: '/api/v1/auth/wx-login',
      method: 'POST',
      data: { code: 'wx-code-1' },
    });
    expect(sentHeaders(1).Authorization).toBe('Bearer tok-1');
    expect(sentHeaders(3).Authorization).toBe('Bearer tok-2');
  });
});

describe('orders and idempotency', () => {
  const input = { sessionId: '7', seatIds: ['11', '12'] };

  it('reuses the Idempotency-Key when the same order is submitted again', async () => {
    taro.setStorageSync('showtix.token', 'tok');
    const attempt = new OrderAttempt();
    answer(fail('INTERNAL', 500), { statusCode: 201, data: { orderNo: 'N1' } });
    await expect(createOrder(input, attempt)).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(createOrder(input, attempt)).resolves.toEqual({ orderNo: 'N1' });
    const [k1, k2] = [sentHeaders(0)['Idempotency-Key'], sentHeaders(1)['Idempotency-Key']];
    expect(k1).toMatch(/^[\w.:-]{8,128}$/);
    expect(k2).toBe(k1);
  });

  it('uses a new key for a different order and after reset', () => {
    const attempt = new OrderAttempt();
    const k1 = attempt.keyFor(input);
    expect(attempt.keyFor({ ...input })).toBe(k1);
    expect(attempt.keyFor({ sessionId: '7', seatIds: ['13'] })).not.toBe(k1);
    attempt.reset();
    expect(attempt.keyFor(input)).not.toBe(k1);
  });

  it('checks the request with the shared schema before sending', async () => {
    await expect(
      createOrder({ sessionId: '7', seatIds: ['11', '11'] }, new OrderAttempt()),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(taro.request).not.toHaveBeenCalled();
  });
});

describe('H5 login and payment adapters', () => {
  it('asks the simulator for a login code as the same fan every time', async () => {
    answer({ statusCode: 200, data: { code: 'c1' } }, { statusCode: 200, data: { code: 'c2' } });
    expect(await getLoginCode()).toBe('c1');
    expect(await getLoginCode()).toBe('c2');
    const [a, b] = taro.request.mock.calls.map((c) => c[0]);
    expect(a.url).toBe('http://127.0.0.1:3100/sim/login');
    expect(a.data.openid).toBe(browserOpenid());
    expect(b.data.openid).toBe(a.data.openid);
  });

  it('passes the wx.requestPayment parameters and the AppID to the cashier, which sends the fan back', () => {
    const back = orderReturnUrl('N1', { origin: 'http://shop.test', pathname: '/' });
    expect(back).toBe('http://shop.test/#/pages/order/index?orderNo=N1');
    const params = {
      timeStamp: '1790000000',
      nonceStr: 'n0nce',
      package: 'prepay_id=p1',
      signType: 'RSA',
      paySign: 'a+b/c==',
    };
    const href = new URL(cashierHref('http://sim/sim/cashier?prepay_id=p1', params, back, 'wxapp'));
    expect(href.origin + href.pathname).toBe('http://sim/sim/cashier');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      prepay_id: 'p1',
      appId: 'wxapp',
      ...params,
      return_url: back,
    });
    const noApp = new URL(cashierHref('http://sim/c', params, back, undefined));
    expect(noApp.searchParams.has('appId')).toBe(false);
    expect(noApp.searchParams.get('paySign')).toBe('a+b/c==');
  });
});

describe('asset URLs', () => {
  const env = process.env.TARO_ENV;
  afterEach(() => (process.env.TARO_ENV = env));

  it('keeps an uploaded poster path in H5 and makes it absolute for the mini-program', () => {
    expect(assetUrl('/uploads/p.jpg')).toBe('/uploads/p.jpg');
    process.env.TARO_ENV = 'weapp';
    expect(assetUrl('/uploads/p.jpg')).toBe('http://127.0.0.1:3000/uploads/p.jpg');
    expect(assetUrl('https://cdn.example.com/p.jpg')).toBe('https://cdn.example.com/p.jpg');
    expect(assetUrl('//cdn.example.com/p.jpg')).toBe('//cdn.example.com/p.jpg');
  });
});
