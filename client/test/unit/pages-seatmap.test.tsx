import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import taro, { pages } from './stubs/taro';
import { TIERS, seatMap } from './fixtures';
import { phoneLayout, seatmap, serveSeatMap, tap } from './seatmap-page';
import * as catalog from '../../src/services/catalog';
import SeatMapPage from '../../src/pages/seatmap/index';
import { loadDraft } from '../../src/services/draft';
import { ok, serveApi } from './fake-api';

jest.mock('../../src/services/catalog');
const api = jest.mocked(catalog);

beforeAll(phoneLayout);

beforeEach(() => serveSeatMap(api, seatMap({ s5: 'sold' }), { sold: ['s5'] }));

const total = () => screen.getByTestId('running-total').textContent;

it('selects seats up to the limit with a running total, and hands the selection to checkout', async () => {
  render(<SeatMapPage />);
  await screen.findByTestId('seat-canvas');
  await waitFor(() => expect(seatmap()).toBeDefined());
  expect(screen.getAllByTestId('legend-tier').map((e) => e.textContent)).toEqual([
    'VIP ¥1,880',
    '看台 ¥680.50',
  ]);

  tap(0);
  expect(screen.getAllByTestId('seat-chip')[0]!.textContent).toContain('A区 1排1座');
  expect(total()).toBe('¥1,880');
  tap(10);
  expect(total()).toBe('¥2,560.50');
  tap(11); // the session's limit is 2
  expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '本场每单限购 2 张' }));
  expect(screen.getAllByTestId('seat-chip')).toHaveLength(2);
  tap(4); // sold
  expect(taro.showToast).toHaveBeenLastCalledWith(
    expect.objectContaining({ title: '该座位已售出，请选择其他座位' }),
  );
  tap(0); // toggles off
  expect(total()).toBe('¥680.50');

  tap(1);
  fireEvent.click(screen.getByTestId('confirm-seats'));
  expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/confirm/index?sessionId=7' });
  expect(loadDraft('7')).toMatchObject({
    showTitle: '星河巡回演唱会',
    realName: true,
    purchaseLimit: 2,
    seats: [
      { id: 's11', label: 'A区 2排1座', tierName: '看台', priceFen: 68_050 },
      { id: 's2', label: 'A区 1排2座', tierName: 'VIP', priceFen: 188_000 },
    ],
  });
});

it('polls deltas since the version it has, applying only what changed', async () => {
  jest.useFakeTimers();
  try {
    api.getSeatMap.mockResolvedValue({ ...seatMap({ s5: 'sold' }), statesVersion: 'v0' });
    render(<SeatMapPage />);
    await waitFor(() => expect(seatmap()).toBeDefined());
    tap(10);
    const delta = (
      version: string,
      since: string,
      d: { held?: string[]; sold?: string[]; available?: string[] },
    ) => ({
      sessionId: '7',
      version,
      since,
      full: false as const,
      held: [],
      sold: [],
      available: [],
      zones: [],
      ...d,
    });
    api.getSeatStates.mockResolvedValueOnce(delta('v0', 'v0', {}));
    await act(async () => {
      await jest.advanceTimersByTimeAsync(4000);
    });
    expect(api.getSeatStates).toHaveBeenLastCalledWith('7', 'v0');
    expect(total()).toBe('¥680.50'); // an idle delta changes nothing
    api.getSeatStates.mockResolvedValueOnce(delta('v1', 'v0', { held: ['s11'], available: ['s5'] }));
    await act(async () => {
      await jest.advanceTimersByTimeAsync(4000);
    });
    expect(api.getSeatStates).toHaveBeenLastCalledWith('7', 'v0');
    expect(total()).toBe('¥0');
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: 'A区 2排1座 已被抢，请重新选择' }),
    );
    api.getSeatStates.mockResolvedValueOnce(delta('v1', 'v1', {}));
    await act(async () => {
      await jest.advanceTimersByTimeAsync(4000);
    });
    expect(api.getSeatStates).toHaveBeenLastCalledWith('7', 'v1');
    tap(4); // s5 was freed by the delta: it can be picked now
    expect(screen.queryAllByTestId('seat-chip')).toHaveLength(1);
  } finally {
    jest.useRealTimers();
  }
});

it('refreshes seat states while open and drops a selected seat someone else took', async () => {
  jest.useFakeTimers();
  try {
    render(<SeatMapPage />);
    await waitFor(() => expect(seatmap()).toBeDefined());
    tap(10);
    expect(total()).toBe('¥680.50');
    api.getSeatStates.mockResolvedValue({ sessionId: '7', held: ['s11'], sold: ['s5'], zones: [] });
    await act(async () => {
      await jest.advanceTimersByTimeAsync(4000);
    });
    expect(screen.queryAllByTestId('seat-chip')).toHaveLength(0);
    expect(total()).toBe('¥0');
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: 'A区 2排1座 已被抢，请重新选择' }),
    );
    expect(api.getSeatMap).toHaveBeenCalledTimes(1); // states only: the map is not reloaded
    tap(10);
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '该座位已被锁定，请选择其他座位' }),
    );
  } finally {
    jest.useRealTimers();
  }
});

it('offers a zone and quantity picker for general admission', async () => {
  api.getSeatMap.mockResolvedValue({
    sessionId: '8',
    seating: 'zone',
    tiers: [{ id: 'z1t', name: '内场站席', priceFen: 98_000 }],
    seats: [],
    zones: [{ id: 'z1', name: '内场站席', tierId: 'z1t', capacity: 100, available: 1 }],
  });
  pages.push({ route: 'pages/seatmap/index' });
  render(<SeatMapPage />);
  fireEvent.click(await screen.findByTestId('zone-option'));
  fireEvent.click(screen.getByTestId('zone-plus')); // only 1 left: stays at 1
  expect(screen.getByTestId('zone-quantity').textContent).toBe('1');
  expect(total()).toBe('¥980');
  fireEvent.click(screen.getByTestId('confirm-zone'));
  expect(loadDraft('7')?.zone).toEqual({ id: 'z1', name: '内场站席', priceFen: 98_000, quantity: 1 });
});

it('sells the standing zone of a mixed session behind the 站票 tab, one kind per order', async () => {
  const map = seatMap();
  map.tiers = [...TIERS, { id: 'z1t', name: '内场站席', priceFen: 28_000 }];
  map.zones = [{ id: 'z1', name: '内场站席', tierId: 'z1t', capacity: 100, available: 50 }];
  api.getSeatMap.mockResolvedValue(map);
  render(<SeatMapPage />);
  await waitFor(() => expect(seatmap()).toBeDefined());
  // The standing tier is no seat colour: the legend lists the seat tiers, the tab the zone.
  expect(screen.getAllByTestId('legend-tier').map((e) => e.textContent)).toEqual([
    'VIP ¥1,880',
    '看台 ¥680.50',
  ]);
  expect(screen.getByTestId('seating-zones').textContent).toBe('站票¥280 起');
  tap(0); // a seat picked first stays picked behind the other tab
  fireEvent.click(screen.getByTestId('seating-zones'));
  expect(screen.queryByTestId('seat-canvas')).toBeNull();
  expect(screen.getByTestId('zones-note').textContent).toBe('座位与站票需分开下单');
  fireEvent.click(screen.getByTestId('zone-option'));
  fireEvent.click(screen.getByTestId('zone-plus'));
  fireEvent.click(screen.getByTestId('zone-plus')); // the session's limit is 2
  expect(screen.getByTestId('zone-quantity').textContent).toBe('2');
  expect(total()).toBe('¥560');
  fireEvent.click(screen.getByTestId('seating-seats'));
  await screen.findByTestId('seat-canvas');
  expect(screen.getAllByTestId('seat-chip')[0]!.textContent).toContain('A区 1排1座');
  fireEvent.click(screen.getByTestId('seating-zones'));
  expect(screen.getByTestId('zone-quantity').textContent).toBe('2');
  fireEvent.click(screen.getByTestId('confirm-zone'));
  expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/confirm/index?sessionId=7' });
  const draft = loadDraft('7');
  expect(draft?.zone).toEqual({ id: 'z1', name: '内场站席', priceFen: 28_000, quantity: 2 });
  expect(draft?.seats).toBeUndefined();
});

describe('the purchase limit, counting what the fan already holds', () => {
  const quota = (held: number) => ({
    sessionId: '7',
    purchaseLimit: 2,
    held,
    showPurchaseLimit: null,
    showHeld: 0,
    remaining: Math.max(0, 2 - held),
  });
  const open = async (held: number) => {
    taro.setStorageSync('showtix.token', 'tok'); // a fan who has bought before is logged in
    serveApi({ 'GET /api/v1/sessions/7/quota': ok(quota(held)) });
    render(<SeatMapPage />);
    await waitFor(() => expect(seatmap()).toBeDefined());
  };

  it('a fan who holds the limit is told 已达限购 on the map, before picking anything', async () => {
    await open(2);
    expect((await screen.findByTestId('limit-reached')).textContent).toBe(
      '您已购买本场 2 张，已达每人限购 2 张',
    );
    expect(screen.getByTestId('confirm-seats').textContent).toBe('已达限购');
    tap(0);
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '您已购买本场 2 张，已达每人限购 2 张' }),
    );
    expect(screen.queryAllByTestId('seat-chip')).toHaveLength(0);
  });

  it('a fan who holds one of two may pick one more, and is told why not a second', async () => {
    await open(1);
    await waitFor(() => expect(taro.request).toHaveBeenCalled());
    await act(async () => undefined);
    tap(0);
    expect(screen.getAllByTestId('seat-chip')).toHaveLength(1);
    tap(1);
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '您已购买本场 1 张，本场还可再选 1 张' }),
    );
    expect(screen.getAllByTestId('seat-chip')).toHaveLength(1);
  });

  it('asks nothing of a fan who is not logged in (browsing never logs in)', async () => {
    render(<SeatMapPage />);
    await waitFor(() => expect(seatmap()).toBeDefined());
    expect(taro.request).not.toHaveBeenCalled();
    expect(screen.queryByTestId('limit-reached')).toBeNull();
  });
});

it('列表选座: a fan who cannot use the map picks by section, row and seat, under the same rules', async () => {
  render(<SeatMapPage />);
  await screen.findByTestId('seat-canvas');
  fireEvent.click(screen.getByTestId('view-toggle'));
  const list = await screen.findByTestId('seat-list');
  expect(screen.getAllByTestId('list-section').map((e) => e.textContent)).toEqual(['A区']);
  expect(screen.getAllByTestId('list-row')[0]!.textContent).toBe('1排');
  const seats = () => screen.getAllByTestId('list-seat');
  expect(seats()[4]!.getAttribute('aria-label')).toBe('A区 1排 5座 已售，¥1,880');
  fireEvent.click(seats()[4]!); // sold: nothing happens
  expect(screen.queryAllByTestId('seat-chip')).toHaveLength(0);
  fireEvent.click(seats()[0]!);
  expect(seats()[0]!.getAttribute('aria-label')).toBe('A区 1排 1座 已选，¥1,880');
  expect(seats()[0]!.getAttribute('aria-pressed')).toBe('true');
  fireEvent.click(screen.getAllByTestId('list-row')[1]!);
  fireEvent.click(seats()[0]!);
  expect(screen.getAllByTestId('seat-chip').map((e) => e.textContent)).toEqual([
    expect.stringContaining('A区 1排1座'),
    expect.stringContaining('A区 2排1座'),
  ]);
  expect(total()).toBe('¥2,560.50');
  fireEvent.click(seats()[1]!); // the session's limit is 2: the map's own refusal
  expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '本场每单限购 2 张' }));
  expect(list).toBeTruthy();
});

it('polls seat states as often as the server says (an operator slowed them down in a peak)', async () => {
  jest.useFakeTimers();
  try {
    render(<SeatMapPage />);
    await waitFor(() => expect(seatmap()).toBeDefined());
    api.getSeatStates.mockResolvedValue({
      sessionId: '7',
      held: [],
      sold: ['s5'],
      zones: [],
      pollAfterMs: 20_000,
    } as never);
    const polls = () => api.getSeatStates.mock.calls.length;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(4000);
    });
    const afterFirst = polls();
    // The answer asked for 20 s: nothing more for the next 15 s, then the next poll.
    await act(async () => {
      await jest.advanceTimersByTimeAsync(15_000);
    });
    expect(polls()).toBe(afterFirst);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(5_500);
    });
    expect(polls()).toBe(afterFirst + 1);
  } finally {
    jest.useRealTimers();
  }
});
