import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import taro, { resetTaro, router } from './stubs/taro';
import { ok, refuse, serveApi } from './fake-api';
import { SESSION, seatMap, orderItem, ticketedOrder, SHOW_3 } from './fixtures';
import { phoneLayout, seatmap, tap } from './seatmap-page';
import * as catalog from '../../src/services/catalog';
import SeatMapPage from '../../src/pages/seatmap/index';
import { clearSessionContext } from '../../src/services/context';
import { openOrderPage } from './order-page';

/**
 * 改签 (issue 16) in the fan app: 改签 on the order page -> tickets and session -> the seat map in
 * exchange mode -> confirm; the order page lists the exchange (old ticket voided, new one issued).
 */
jest.mock('../../src/services/catalog', () => {
  const real = jest.requireActual('../../src/services/catalog');
  return { ...real, getSeatMap: jest.fn(), getSeatStates: jest.fn() };
});
const api = jest.mocked(catalog);

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const LATER = { ...SESSION, id: '8', startsAt: new Date(NOW + 50 * 86_400_000).toISOString() };
const SHOW = {
  ...SHOW_3,
  refundRules: [],
  exchangeRules: { allowed: true, cutoffMinutes: 120 },
  sessions: [SESSION, LATER],
};
const item = (n: number) => orderItem(n, 68_050);
const ORDER = ticketedOrder(NOW, 'N300', [item(2), item(3)]);
const DONE = {
  exchangeId: '1',
  status: 'done',
  originalOrderNo: 'N300',
  orderNo: 'N301',
  fromSessionId: '7',
  toSessionId: '8',
  oldFen: 68_050,
  newFen: 68_050,
  diffFen: 0,
  oldTicketIds: [item(2).ticketId],
  newTicketIds: ['TNEWNEWNEWNEWNEWNEWN'],
  createdAt: new Date(NOW).toISOString(),
};

beforeEach(() => {
  resetTaro();
  clearSessionContext();
  taro.setStorageSync('showtix.token', 'tok');
});

describe('order page', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  it('offers 改签 when the show allows it: tickets and session chosen, then the seat map in exchange mode', async () => {
    const sent = await openOrderPage(ORDER, {
      show: SHOW,
      routes: { 'GET /api/v1/orders/N300/exchanges': ok({ items: [] }) },
    });
    fireEvent.click(screen.getByTestId('exchange-open'));
    expect(screen.getAllByTestId('exchange-pick')).toHaveLength(2);
    expect(screen.getByTestId('exchange-pick-seats').textContent).toBe('请选择门票');
    fireEvent.click(screen.getAllByTestId('exchange-pick')[1]!);
    const sessions = screen.getAllByTestId('exchange-session');
    expect(sessions).toHaveLength(2);
    expect(sessions[0]!.textContent).toContain('（本场）');
    fireEvent.click(sessions[1]!);
    fireEvent.click(screen.getByTestId('exchange-pick-seats'));
    expect(taro.navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/seatmap/index?sessionId=8&showId=3&exchange=N300&tickets=${item(3).ticketId}`,
    });
    // The chosen session's map (this file's stand-in) and session are asked for as the fan sets
    // off for them (openSeatMap), before the seat-map page exists.
    expect(api.getSeatMap).toHaveBeenCalledTimes(1);
    expect(api.getSeatMap).toHaveBeenCalledWith('8');
    expect(sent.map((r) => r.key)).toContain('GET /api/v1/sessions/8');
  });

  it('lists the exchange: the old ticket voided, the new one issued; the exchanged ticket is not offered again', async () => {
    await openOrderPage(ORDER, {
      show: SHOW,
      routes: { 'GET /api/v1/orders/N300/exchanges': ok({ items: [DONE] }) },
    });
    const row = screen.getByTestId('exchange-row');
    expect(row.getAttribute('data-status')).toBe('done');
    expect(row.textContent).toContain(`原票 ${item(2).ticketId} 已作废`);
    expect(row.textContent).toContain('新票 TNEWNEWNEWNEWNEWNEWN 已出票');
    // The exchanged ticket is not offered again; the other one is.
    fireEvent.click(screen.getByTestId('exchange-open'));
    expect(screen.getAllByTestId('exchange-pick')).toHaveLength(1);
  });

  it('shows no 改签 when the show does not allow it', async () => {
    const sent = await openOrderPage(ORDER, {
      show: { ...SHOW, exchangeRules: { allowed: false, cutoffMinutes: 0 } },
    });
    expect(screen.queryByTestId('exchange-open')).toBeNull();
    expect(sent.map((s) => s.key)).not.toContain('GET /api/v1/orders/N300/exchanges');
  });
});

describe('seat map in exchange mode', () => {
  beforeAll(phoneLayout);

  it('takes exactly as many seats as tickets and confirms the exchange, then opens the exchange order', async () => {
    router.params = { sessionId: '7', showId: '3', exchange: 'N300', tickets: item(2).ticketId };
    api.getSeatMap.mockResolvedValue(seatMap());
    api.getSeatStates.mockResolvedValue({ sessionId: '7', held: [], sold: [], zones: [] });
    const sent = serveApi({
      'GET /api/v1/sessions/7': ok(SESSION),
      'GET /api/v1/shows/3': ok(SHOW),
      'POST /api/v1/orders/N300/exchange': [
        refuse(409, 'SEAT_TAKEN'),
        ok({ ...DONE, status: 'pending', orderNo: 'N302', diffFen: 119_950 }),
      ],
    });
    render(<SeatMapPage />);
    await screen.findByTestId('seat-canvas');
    await waitFor(() => expect(seatmap()).toBeDefined());
    tap(0);
    tap(1); // one ticket: one seat
    expect(screen.getAllByTestId('seat-chip')).toHaveLength(1);
    await act(async () => {
      fireEvent.click(screen.getByTestId('confirm-seats'));
    });
    await waitFor(() => expect(taro.showToast).toHaveBeenCalled());
    expect(taro.redirectTo).not.toHaveBeenCalled(); // refused: the fan stays on the map
    await act(async () => {
      fireEvent.click(screen.getByTestId('confirm-seats'));
    });
    await waitFor(() =>
      expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/order/index?orderNo=N302' }),
    );
    const posts = sent.filter((s) => s.key === 'POST /api/v1/orders/N300/exchange');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.data).toEqual({ ticketIds: [item(2).ticketId], sessionId: '7', seatIds: ['s1'] });
    // A refusal made the next tap a new attempt, with a new key.
    expect(posts[0]!.header['Idempotency-Key']).not.toBe(posts[1]!.header['Idempotency-Key']);
  });
});
