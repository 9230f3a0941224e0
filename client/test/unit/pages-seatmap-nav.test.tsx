/**
 * The seat map page's navigation controls (issue 17, #6): the legend as a tier filter, 全览,
 * and the 场次 switch. (Drawing, the minimap and dense taps: seatmap-nav.test.ts.)
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import taro from './stubs/taro';
import { SESSION, seatMap } from './fixtures';
import { phoneLayout, seatmap, serveSeatMap, tap } from './seatmap-page';
import * as catalog from '../../src/services/catalog';
import SeatMapPage from '../../src/pages/seatmap/index';

jest.mock('../../src/services/catalog');
const api = jest.mocked(catalog);

beforeAll(phoneLayout);

const session = (id: string, startsAt: string, status = 'on_sale') => ({ ...SESSION, id, startsAt, status });

beforeEach(() =>
  serveSeatMap(api, seatMap(), {
    show: {
      sessions: [
        session('7', '2027-01-15T11:30:00.000Z'),
        session('8', '2027-01-16T11:30:00.000Z'),
        session('9', '2027-01-17T11:30:00.000Z', 'presale'),
        session('6', '2026-01-10T11:30:00.000Z', 'ended'),
      ],
    },
  }),
);

async function ready() {
  render(<SeatMapPage />);
  await waitFor(() => expect(seatmap()).toBeDefined());
}

it('a tier in the legend filters the map: only its seats can be picked until it is tapped again', async () => {
  await ready();
  const [vip, stand] = screen.getAllByTestId('legend-tier');
  expect(vip!.getAttribute('aria-pressed')).toBe('false');
  fireEvent.click(vip!);
  expect(vip!.getAttribute('aria-pressed')).toBe('true');
  expect(stand!.className).toContain('legend__item--dim');
  tap(10); // 看台 (row 2): offered no more
  expect(screen.queryAllByTestId('seat-chip')).toHaveLength(0);
  expect(taro.showToast).toHaveBeenLastCalledWith(
    expect.objectContaining({ title: '当前只看「VIP」，点图例中的票档可切换' }),
  );
  tap(0); // VIP
  expect(screen.getAllByTestId('seat-chip')).toHaveLength(1);
  fireEvent.click(vip!); // the filter off: every tier again
  expect(vip!.getAttribute('aria-pressed')).toBe('false');
  tap(10);
  expect(screen.getAllByTestId('seat-chip')).toHaveLength(2);
});

it('the list view keeps the filter: seats of other tiers are listed as not offered', async () => {
  await ready();
  fireEvent.click(screen.getAllByTestId('legend-tier')[1]!); // 看台 only
  fireEvent.click(screen.getByTestId('view-toggle'));
  const row1 = screen.getAllByTestId('list-seat'); // row 1 is VIP
  expect(row1[0]!.textContent).toBe('1座 非所选票档');
  fireEvent.click(row1[0]!);
  expect(screen.queryAllByTestId('seat-chip')).toHaveLength(0);
  fireEvent.click(screen.getAllByTestId('list-row')[1]!); // row 2: 看台
  expect(screen.getAllByTestId('list-seat')[0]!.textContent).toBe('1座 可选');
  fireEvent.click(screen.getAllByTestId('list-seat')[0]!);
  expect(screen.getAllByTestId('seat-chip')).toHaveLength(1);
});

it('全览 brings a zoomed map back to the whole venue', async () => {
  await ready();
  const fit = seatmap().view()!.fitScale;
  fireEvent.click(screen.getByLabelText('放大座位图'));
  await waitFor(() => expect(seatmap().view()!.scale).toBeGreaterThan(fit));
  fireEvent.click(screen.getByTestId('zoom-all'));
  await waitFor(() => expect(seatmap().view()!.scale).toBe(fit));
});

it('场次: the show’s sessions on the map page; another session on sale opens its map', async () => {
  await ready();
  await waitFor(() => expect(screen.getAllByTestId('session-chip')).toHaveLength(3));
  const chips = screen.getAllByTestId('session-chip');
  expect(chips.map((c) => c.textContent)).toEqual([
    '01月15日 19:30',
    '01月16日 19:30',
    '01月17日 19:30未开售',
  ]);
  expect(chips[0]!.getAttribute('aria-pressed')).toBe('true');
  fireEvent.click(chips[2]!); // not on sale yet: stays
  fireEvent.click(chips[0]!); // the current one: stays
  expect(taro.redirectTo).not.toHaveBeenCalled();
  fireEvent.click(chips[1]!);
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/seatmap/index?sessionId=8&showId=3' });
});

it('no 场次 switch for a show with one session', async () => {
  api.getShow.mockResolvedValue({
    id: '3',
    title: '星河巡回演唱会',
    venueName: '梅奔',
    venue: { id: '1', name: '梅赛德斯', city: '上海', address: '' },
    sessions: [session('7', '2027-01-15T11:30:00.000Z')],
  } as never);
  await ready();
  await screen.findByText('星河巡回演唱会');
  expect(screen.queryByTestId('session-switch')).toBeNull();
});
