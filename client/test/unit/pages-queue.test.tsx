import type { QueueStatus } from '@showtix/shared-types';
import { fireEvent, render, screen } from '@testing-library/react';
import taro, { resetTaro, router } from './stubs/taro';
import { ok, refuse, serveApi, type Reply } from './fake-api';
import { tick } from './fan';
import { SESSION } from './fixtures';
import QueuePage from '../../src/pages/queue/index';
import { clearSessionContext } from '../../src/services/context';
import {
  currentAdmission,
  loadEntry,
  markAdmissionUsed,
  retryDelayMs,
  saveEntry,
} from '../../src/services/queue';

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const JOIN = 'POST /api/v1/sessions/7/queue/join';
const POLL = 'GET /api/v1/sessions/7/queue';

const status = (over: Partial<QueueStatus> = {}): QueueStatus => ({
  sessionId: '7',
  queueEnabled: true,
  state: 'waiting',
  position: 120,
  ahead: 100,
  admittedThrough: 19,
  admitted: false,
  soldOut: false,
  etaSeconds: 600,
  pollAfterMs: 5_000,
  ...over,
});

function api(queue: Record<string, Reply | Reply[]>, session: Partial<typeof SESSION> = {}) {
  return serveApi({
    'GET /api/v1/sessions/7': ok({ ...SESSION, queueEnabled: true, realName: false, ...session }),
    'GET /api/v1/shows/3': ok({ id: '3', title: '星河巡回演唱会', venue: { name: '梅奔' }, sessions: [] }),
    ...queue,
  });
}

const count = (sent: { key: string }[], key: string) => sent.filter((s) => s.key === key).length;
const view = () => screen.getByTestId('queue-page').dataset.view;

beforeEach(() => {
  resetTaro();
  clearSessionContext();
  jest.useFakeTimers({ now: NOW });
  taro.setStorageSync('showtix.token', 'tok');
  router.params = { sessionId: '7', showId: '3' };
});
afterEach(() => jest.useRealTimers());

async function open() {
  render(<QueuePage />);
  await tick(0);
}

it('shows the place, the people ahead, who is let in and the wait; polls after pollAfterMs, never sooner', async () => {
  const sent = api({
    [JOIN]: ok(status()),
    [POLL]: [
      ok(status({ ahead: 60, admittedThrough: 59, etaSeconds: 360, pollAfterMs: 2_000 })),
      ok(status({ ahead: 10, admittedThrough: 109 })),
    ],
  });
  await open();
  expect(view()).toBe('waiting');
  expect(screen.getByTestId('queue-position').textContent).toBe('120');
  expect(screen.getByTestId('queue-ahead').textContent).toBe('100 人');
  expect(screen.getByTestId('queue-eta').textContent).toBe('约 10 分钟');
  expect(screen.getByTestId('queue-admitting').textContent).toBe('正在放行第 19 位');
  expect(sent.find((s) => s.key === JOIN)!.header['X-Device-Id']).toMatch(/^dev-/);

  await tick(4_999);
  expect(count(sent, POLL)).toBe(0);
  await tick(1);
  expect(count(sent, POLL)).toBe(1);
  expect(screen.getByTestId('queue-ahead').textContent).toBe('60 人');
  expect(screen.getByTestId('queue-admitting').textContent).toBe('正在放行第 59 位');
  // The server now asks for 2 s.
  await tick(1_999);
  expect(count(sent, POLL)).toBe(1);
  await tick(1);
  expect(count(sent, POLL)).toBe(2);
  expect(screen.getByTestId('queue-ahead').textContent).toBe('10 人');
});

it('backs off on 429 for Retry-After, and on network trouble; never sooner than pollAfterMs', async () => {
  const sent = api({
    [JOIN]: ok(status({ pollAfterMs: 5_000 })),
    [POLL]: [refuse(429, 'RATE_LIMITED', { 'Retry-After': '12' }), 'network', ok(status({ ahead: 50 }))],
  });
  await open();
  await tick(5_000);
  expect(count(sent, POLL)).toBe(1); // 429
  expect(screen.getByTestId('queue-retrying').textContent).toBe('当前排队人数较多，稍后自动刷新');
  await tick(11_999);
  expect(count(sent, POLL)).toBe(1);
  await tick(1);
  expect(count(sent, POLL)).toBe(2); // no answer
  expect(screen.getByTestId('queue-retrying').textContent).toBe('网络不给力，正在自动重试…');
  // The waiting position stays on screen meanwhile.
  expect(screen.getByTestId('queue-ahead').textContent).toBe('100 人');
  await tick(4_999);
  expect(count(sent, POLL)).toBe(2);
  await tick(1_001 + 1_000); // 5 s .. 6 s with jitter
  expect(count(sent, POLL)).toBe(3);
  expect(screen.getByTestId('queue-ahead').textContent).toBe('50 人');
  expect(screen.queryByTestId('queue-retrying')).toBeNull();
});

it('retry delays: Retry-After, exponential back-off with jitter, nothing for refusals', () => {
  expect(retryDelayMs({ code: 'RATE_LIMITED', retryAfterMs: 12_000 }, 5_000, 1)).toBe(12_000);
  expect(retryDelayMs({ code: 'RATE_LIMITED', retryAfterMs: 1_000 }, 30_000, 1)).toBe(30_000);
  expect(retryDelayMs({ code: 'NETWORK' }, 0, 1, () => 0)).toBe(2_000);
  expect(retryDelayMs({ code: 'NETWORK' }, 0, 3, () => 0)).toBe(8_000);
  expect(retryDelayMs({ code: 'NETWORK' }, 0, 9, () => 1)).toBe(36_000);
  expect(retryDelayMs({ code: 'BLOCKED' }, 5_000, 1)).toBeUndefined();
  expect(retryDelayMs({ code: 'QUEUE_ID_TAKEN' }, 5_000, 1)).toBeUndefined();
});

it('presale: 开售后随机排序; then shuffling; then a place in line', async () => {
  api(
    {
      [JOIN]: ok(
        status({
          state: 'presale',
          position: null,
          ahead: null,
          admittedThrough: 0,
          etaSeconds: null,
          pollAfterMs: 30_000,
        }),
      ),
      [POLL]: [
        ok(status({ state: 'shuffling', position: null, ahead: null, pollAfterMs: 2_000 })),
        ok(status({ position: 5, ahead: 4, admittedThrough: 0 })),
      ],
    },
    { status: 'presale', saleStartsAt: new Date(NOW + 65_000).toISOString() },
  );
  await open();
  expect(view()).toBe('presale');
  expect(screen.getByTestId('queue-presale').textContent).toContain('开售后随机排序');
  expect(screen.getByTestId('queue-sale-clock').textContent).toBe('01:05');
  await tick(30_000);
  expect(view()).toBe('shuffling');
  expect(screen.getByTestId('queue-shuffling').textContent).toContain('正在随机排定顺序');
  await tick(2_000);
  expect(view()).toBe('waiting');
  expect(screen.getByTestId('queue-admitting').textContent).toBe('即将开始放行');
});

it('sold out: 已售罄 and no more polling', async () => {
  const sent = api({
    [JOIN]: ok(status()),
    [POLL]: ok(status({ state: 'sold_out', soldOut: true })),
  });
  await open();
  await tick(5_000);
  expect(view()).toBe('sold_out');
  expect(screen.getByTestId('queue-soldout').textContent).toContain('已售罄');
  await tick(10 * 60_000);
  expect(count(sent, POLL)).toBe(1);
  fireEvent.click(screen.getByTestId('queue-soldout-action'));
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/show/index?id=3' });
});

it('admitted: keeps the token and moves on to the seat map by itself', async () => {
  const until = new Date(NOW + 10 * 60_000).toISOString();
  const sent = api({
    [JOIN]: ok(status()),
    [POLL]: ok(
      status({
        state: 'admitted',
        admitted: true,
        ahead: 0,
        admissionToken: 'adm.1',
        admissionExpiresAt: until,
        pollAfterMs: 15_000,
      }),
    ),
  });
  await open();
  expect(count(sent, 'GET /api/v1/sessions/7/layout')).toBe(0);
  await tick(5_000);
  expect(view()).toBe('admitted');
  expect(taro.redirectTo).toHaveBeenCalledTimes(1);
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/seatmap/index?sessionId=7&showId=3' });
  // The seat map's data was asked for as the fan was let in, before the seat-map page exists.
  expect(count(sent, 'GET /api/v1/sessions/7/layout')).toBe(1);
  expect(count(sent, 'GET /api/v1/sessions/7/seat-states')).toBe(1);
  expect(currentAdmission('7', NOW)).toEqual({ token: 'adm.1', expiresAt: until });
  await tick(60_000);
  expect(count(sent, POLL)).toBe(1);
});

it('a turn that ran out: 重新排队 joins again (at the back)', async () => {
  const sent = api({
    [JOIN]: [ok(status()), ok(status({ position: 900, ahead: 700 }))],
    [POLL]: ok(status({ state: 'expired', position: null, ahead: null, pollAfterMs: 10_000 })),
  });
  await open();
  await tick(5_000);
  expect(view()).toBe('expired');
  expect(screen.getByTestId('queue-expired').textContent).toContain('本轮购票时间已结束');
  fireEvent.click(screen.getByTestId('queue-expired-action'));
  await tick(0);
  expect(count(sent, JOIN)).toBe(2);
  expect(screen.getByTestId('queue-position').textContent).toBe('900');
});

it('keeps its place across restarts: joins again with the same body, and shows a finished turn as it ended', async () => {
  saveEntry({
    sessionId: '7',
    join: { idType: 'id_card', idNumber: '11010519491231002X' },
    joinedAt: NOW - 60_000,
    state: 'waiting',
    firstAhead: 200,
  });
  const sent = api({ [JOIN]: ok(status({ ahead: 100 })) }, { realName: true });
  await open();
  expect(sent.find((s) => s.key === JOIN)!.data).toEqual({
    idType: 'id_card',
    idNumber: '11010519491231002X',
  });
  expect(view()).toBe('waiting');
  expect(loadEntry('7')!.firstAhead).toBe(200); // the progress bar keeps its start

  saveEntry({
    ...loadEntry('7')!,
    state: 'admitted',
    admissionToken: 'old',
    admissionExpiresAt: new Date(NOW - 1).toISOString(),
  });
  const again = api({ [JOIN]: ok(status()) }, { realName: true });
  render(<QueuePage />);
  await tick(0);
  expect(screen.getAllByTestId('queue-page')[1]!.dataset.view).toBe('expired');
  expect(count(again, JOIN)).toBe(0);
});

it('real-name: asks for an ID; QUEUE_ID_TAKEN says so and asks again', async () => {
  const sent = api(
    { [JOIN]: [refuse(409, 'QUEUE_ID_TAKEN'), ok(status())], 'GET /api/v1/me/attendees': ok({ items: [] }) },
    { realName: true },
  );
  await open();
  expect(view()).toBe('need_id');
  fireEvent.change(screen.getByTestId('queue-id-number'), { target: { value: '110105194912310021' } });
  fireEvent.click(screen.getByTestId('queue-join'));
  expect(screen.getByText('身份证号码有误，请核对')).toBeTruthy();
  fireEvent.change(screen.getByTestId('queue-id-number'), { target: { value: '11010519491231002x' } });
  fireEvent.click(screen.getByTestId('queue-join'));
  await tick(0);
  expect(sent.find((s) => s.key === JOIN)!.data).toEqual({
    idType: 'id_card',
    idNumber: '11010519491231002X',
  });
  const panel = screen.getByTestId('error-panel');
  expect(panel.dataset.code).toBe('QUEUE_ID_TAKEN');
  expect(panel.textContent).toContain('该证件已在其他账号排队');
  fireEvent.click(screen.getByTestId('error-action'));
  expect(view()).toBe('need_id');
  fireEvent.change(screen.getByTestId('queue-id-number'), { target: { value: '110105199001011232' } });
  fireEvent.click(screen.getByTestId('queue-join'));
  await tick(0);
  expect(view()).toBe('waiting');
});

it('a session without a waiting room goes straight to its seats', async () => {
  const sent = serveApi({
    'GET /api/v1/sessions/7': ok({ ...SESSION, queueEnabled: false }),
    'GET /api/v1/shows/3': ok({ id: '3', title: 't', venue: { name: 'v' }, sessions: [] }),
  });
  await open();
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/seatmap/index?sessionId=7&showId=3' });
  expect(count(sent, JOIN)).toBe(0);
});

it('a turn that ends after the fan bought says 已成功下单, never 购票时间已用完', async () => {
  const until = new Date(NOW + 60_000).toISOString();
  const sent = api({
    [JOIN]: [
      ok(status({ state: 'admitted', admitted: true, admissionToken: 'adm.1', admissionExpiresAt: until })),
      ok(status({ state: 'expired', position: null, ahead: null })),
    ],
  });
  saveEntry({ sessionId: '7', join: {}, joinedAt: NOW - 60_000, state: 'waiting' });
  await open();
  // The fan submitted an order with this turn (确认订单 marks the token as having bought it).
  markAdmissionUsed('7', 'adm.1', 'N100');
  expect(view()).toBe('admitted');
  const page = () => screen.getAllByTestId('queue-page').at(-1)!;

  // Back to the queue page later: the server says the turn is over.
  saveEntry({ ...loadEntry('7')!, state: 'waiting' });
  render(<QueuePage />);
  await tick(0);
  expect(page().dataset.view).toBe('done');
  expect(page().textContent).toContain('本轮已成功下单');
  expect(page().textContent).not.toContain('您的购票时间已用完');
  expect(count(sent, JOIN)).toBe(2);

  // Opened again after that: the same, from storage, without asking the server.
  render(<QueuePage />);
  await tick(0);
  expect(page().dataset.view).toBe('done');
  fireEvent.click(screen.getAllByTestId('queue-done-action').at(-1)!);
  expect(taro.reLaunch).toHaveBeenCalledWith({ url: '/pages/orders/index' });
  expect(count(sent, JOIN)).toBe(2);
});

it('loads the session again by itself when the first load met a busy or unreachable server', async () => {
  const sent = serveApi({
    'GET /api/v1/sessions/7': [
      refuse(503, 'OVERLOADED', { 'Retry-After': '1' }),
      refuse(503, 'OVERLOADED', { 'Retry-After': '1' }),
      ok({ ...SESSION, queueEnabled: true, realName: false }),
    ],
    'GET /api/v1/shows/3': ok({ id: '3', title: '星河巡回演唱会', venue: { name: '梅奔' }, sessions: [] }),
    [JOIN]: ok(status()),
  });
  await open();
  await tick(1_000); // the HTTP layer's one wait, then the page's error
  expect(screen.queryByTestId('queue-page')).toBeNull();
  await tick(2_000);
  expect(count(sent, 'GET /api/v1/sessions/7')).toBe(3);
  expect(view()).toBe('waiting');
});
