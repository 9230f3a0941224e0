import { act, fireEvent, render, screen } from '@testing-library/react';
import taro, { router } from './stubs/taro';
import { ok, serveApi } from './fake-api';
import { PHONE_MASKED, SESSION, pendingVipOrder, SHOW_3, showSummary } from './fixtures';
import OrderPage, { refundText } from '../../src/pages/order/index';
import Index, { sortShows } from '../../src/pages/index/index';
import ShowPage from '../../src/pages/show/index';
import { ticketPlace, walletOrder } from '../../src/pages/tickets/index';
import type { ShowSummary } from '@showtix/shared-types';
import { loggedInFan, tick } from './fan';
import { openOrderPage } from './order-page';

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const SHOW = {
  ...SHOW_3,
  refundRules: [
    { hoursBeforeStart: 168, feePercent: 0 },
    { hoursBeforeStart: 48, feePercent: 20 },
  ],
  sessions: [SESSION],
};
const ORDER = pendingVipOrder(NOW);

loggedInFan(NOW);

describe('order detail', () => {
  it('counts down a pending order and cancels it after the fan confirms', async () => {
    await openOrderPage(ORDER, {
      show: SHOW,
      routes: { 'POST /api/v1/orders/N100/cancel': ok({ ...ORDER, status: 'cancelled' }) },
    });
    expect(screen.getByTestId('order-status').textContent).toContain('请在 01:30 内完成支付');
    await act(() => jest.advanceTimersByTimeAsync(30_000));
    expect(screen.getByTestId('order-status').textContent).toContain('请在 01:00 内完成支付');
    expect(screen.getByText('星河巡回演唱会')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByTestId('cancel-order'));
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(taro.showModal).toHaveBeenCalled();
    expect(screen.getByTestId('order-status').dataset.status).toBe('cancelled');
    expect(screen.queryByTestId('pay-again')).toBeNull();
  });

  it('offers a refund under the show rules and polls a paid order until ticketed', async () => {
    router.params = { orderNo: 'N100', result: 'success' };
    let polls = 0;
    let refunded = false;
    serveApi({
      'GET /api/v1/sessions/7': ok(SESSION),
      'GET /api/v1/shows/3': ok(SHOW),
      'POST /api/v1/orders/N100/refund': ok({
        ...ORDER,
        status: 'ticketed',
        refund: { status: 'processing', amountFen: 188_000, feeFen: 0 },
      }),
      'GET /api/v1/orders/N100': () => {
        polls++;
        if (refunded)
          return ok({
            ...ORDER,
            status: 'refunded',
            refund: { status: 'succeeded', amountFen: 188_000, feeFen: 0 },
          });
        return ok({ ...ORDER, status: polls < 3 ? 'paid' : 'ticketed' });
      },
    });
    render(<OrderPage />);
    await tick();
    expect(screen.getByTestId('order-status').textContent).toContain('支付成功，正在出票');
    await act(() => jest.advanceTimersByTimeAsync(2000));
    expect(screen.getByTestId('order-status').dataset.status).toBe('ticketed');
    expect(screen.getByText('当前可免费退票')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByTestId('refund-order'));
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(taro.showModal).toHaveBeenCalledWith(expect.objectContaining({ content: '将全额退回 ¥1,880。' }));
    expect(screen.getByTestId('refund-status').textContent).toBe('退款处理中，预计退回 ¥1,880');
    // The page follows the refund until WeChat Pay settles it.
    refunded = true;
    await act(() => jest.advanceTimersByTimeAsync(2000));
    expect(screen.getByTestId('order-status').dataset.status).toBe('refunded');
    expect(screen.getByTestId('refund-status').textContent).toBe('¥1,880 已原路退回微信支付');
    expect(screen.queryByTestId('refund-order')).toBeNull();
  });

  it('while a refund is open the tickets are not offered for entry; a timeline shows the refund with its times', async () => {
    router.params = { orderNo: 'N100' };
    const requestedAt = '2026-12-01T03:58:00.000Z';
    let refund: Record<string, unknown> = {
      status: 'processing',
      amountFen: 188_000,
      feeFen: 0,
      requestedAt,
    };
    serveApi({
      'GET /api/v1/orders/N100': () =>
        ok({ ...ORDER, status: refund.status === 'succeeded' ? 'refunded' : 'ticketed', refund }),
    });
    render(<OrderPage />);
    await tick();
    const head = () => screen.getByTestId('order-status').textContent;
    expect(head()).toContain('退款处理中，电子票已停用');
    expect(head()).not.toContain('入场时请出示电子票');
    const steps = () =>
      screen.getAllByTestId('refund-step').map((e) => [e.className.split(' ')[1], e.textContent]);
    expect(steps()).toEqual([
      ['timeline__step--done', '提交退款申请12月01日 11:58'],
      ['timeline__step--now', '微信支付处理中'],
      ['timeline__step--todo', '退款到账'],
    ]);
    refund = { ...refund, status: 'succeeded', finishedAt: '2026-12-01T04:00:01.000Z' };
    await act(() => jest.advanceTimersByTimeAsync(2000));
    expect(head()).toContain('订单已退款');
    expect(steps()).toEqual([
      ['timeline__step--done', '提交退款申请12月01日 11:58'],
      ['timeline__step--done', '微信支付处理中'],
      ['timeline__step--done', '退款成功，已原路退回12月01日 12:00'],
    ]);
  });

  it("shows the order's 联系手机 as the server masks it, and no line for an order without one", async () => {
    router.params = { orderNo: 'N100' };
    serveApi({
      'GET /api/v1/orders/N100': ok({ ...ORDER, contactPhone: PHONE_MASKED }),
      'GET /api/v1/orders/N101': ok({ ...ORDER, orderNo: 'N101' }),
    });
    const { unmount } = render(<OrderPage />);
    await tick();
    expect(screen.getByTestId('order-contact-phone').textContent).toBe(`联系手机：${PHONE_MASKED}`);
    unmount();
    router.params = { orderNo: 'N101' };
    render(<OrderPage />);
    await tick();
    expect(screen.getByTestId('order-status')).toBeTruthy();
    expect(screen.queryByTestId('order-contact-phone')).toBeNull();
  });

  it('names the real-name attendee of each item, masked', async () => {
    const attendee = { name: '欧**娜', idMasked: '110***********002X' };
    await openOrderPage(
      { ...ORDER, status: 'ticketed', items: [{ ...ORDER.items[0], attendee }] },
      { show: SHOW },
    );
    expect(screen.getByTestId('item-attendee').textContent).toBe('实名观演人 欧**娜 110***********002X');
  });

  it('explains an error with its way forward', async () => {
    router.params = { orderNo: 'N404' };
    serveApi({});
    render(<OrderPage />);
    await tick();
    expect(screen.getByTestId('error-panel').textContent).toContain('返回首页');
  });
});

describe('home', () => {
  const show = (
    id: string,
    status: ShowSummary['status'],
    nextSaleStartsAt: string | null = null,
  ): ShowSummary => showSummary(id, { status, nextSaleStartsAt });

  it('lists on-sale shows first, then upcoming ones by sale start', () => {
    const sorted = sortShows([
      show('1', 'ended'),
      show('2', 'presale', '2026-12-09T00:00:00Z'),
      show('3', 'on_sale'),
      show('4', 'presale', '2026-12-02T00:00:00Z'),
    ]);
    expect(sorted.map((s) => s.id)).toEqual(['3', '4', '2', '1']);
  });

  it('shows price, status and a countdown to the sale start', async () => {
    serveApi({
      'GET /api/v1/shows': ok({
        items: [
          show('4', 'presale', new Date(NOW + 3 * 3600_000 + 5000).toISOString()),
          show('3', 'on_sale'),
        ],
      }),
    });
    render(<Index />);
    await tick();
    const cards = screen.getAllByTestId('show-card');
    expect(cards[0]!.textContent).toContain('售票中');
    expect(cards[0]!.textContent).toContain('¥380起');
    expect(cards[1]!.textContent).toContain('还剩 03:00:05');
    await act(() => jest.advanceTimersByTimeAsync(5000));
    expect(cards[1]!.textContent).toContain('还剩 03:00:00');
    fireEvent.click(cards[0]!);
    expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/show/index?id=3' });
  });
});

describe('ticket wallet', () => {
  const base = {
    ticketId: 'T1',
    orderNo: 'N100',
    sessionId: '7',
    status: 'valid' as const,
    qr: 'STX1.T1',
    codeStepMs: 20_000,
    showTitle: '星河巡回演唱会',
    venueName: '梅赛德斯-奔驰文化中心',
    startsAt: '2027-01-01T11:30:00.000Z',
  };

  it('names the seat or zone the ticket carries', () => {
    expect(ticketPlace({ ...base, seatId: '11', seat: { section: 'A区', row: '3', number: '12' } })).toBe(
      'A区 3排12座',
    );
    expect(ticketPlace({ ...base, zoneId: 'z1', zoneName: '内场站席' })).toBe('内场站席');
    expect(ticketPlace({ ...base, seatId: '11' })).toBe('对号入座');
  });
});

describe('refund and wallet wording', () => {
  const at = '2026-12-01T04:00:00.000Z';

  it('says what a refund returns, fee included', () => {
    expect(refundText({ status: 'requested', amountFen: 150_400, feeFen: 37_600, requestedAt: at })).toBe(
      '退款申请已提交，预计退回 ¥1,504（已扣手续费 ¥376）',
    );
    expect(refundText({ status: 'succeeded', amountFen: 188_000, feeFen: 0, requestedAt: at })).toBe(
      '¥1,880 已原路退回微信支付',
    );
    expect(refundText({ status: 'abnormal', amountFen: 1, feeFen: 0, requestedAt: at })).toBe(
      '退款异常，客服将尽快处理',
    );
  });

  it('lists usable tickets first', () => {
    const t = (ticketId: string, status: 'valid' | 'voided' | 'refunding') => ({
      ticketId,
      status,
      orderNo: 'N1',
      sessionId: '7',
      qr: 'STX1.' + ticketId,
      codeStepMs: 20_000,
      showTitle: 'x',
      venueName: 'y',
      startsAt: at,
    });
    expect(
      walletOrder([t('A', 'voided'), t('B', 'valid'), t('C', 'refunding'), t('D', 'valid')]).map(
        (x) => x.ticketId,
      ),
    ).toEqual(['B', 'D', 'A', 'C']);
  });
});

describe('show page', () => {
  const SALE = {
    ...SHOW,
    posterUrl: null,
    priceMinFen: 68_050,
    priceMaxFen: 188_000,
    firstStartsAt: SESSION.startsAt,
    lastStartsAt: SESSION.startsAt,
    description: '',
    sessions: [{ ...SESSION, queueEnabled: true }],
  };

  /** The show page of SALE for a fan who already holds `held` of the session's 2. */
  async function showPageHolding(held: number) {
    router.params = { id: '3' };
    serveApi({
      'GET /api/v1/shows/3': ok(SALE),
      'GET /api/v1/sessions/7/quota': ok({
        sessionId: '7',
        purchaseLimit: 2,
        held,
        showPurchaseLimit: null,
        showHeld: 0,
        remaining: 2 - held,
      }),
    });
    render(<ShowPage />);
    await tick();
    await tick();
  }

  it('tells a fan who already holds the limit before the queue: 已达限购, no button to queue', async () => {
    await showPageHolding(2);
    expect(screen.getByTestId('limit-reached').textContent).toBe('您已购买本场 2 张，已达每人限购 2 张');
    const buy = screen.getByTestId('buy-button');
    expect(buy.textContent).toBe('已达限购');
    fireEvent.click(buy);
    expect(taro.navigateTo).not.toHaveBeenCalled();
  });

  it('a fan with tickets left to buy queues as before', async () => {
    await showPageHolding(1);
    expect(screen.queryByTestId('limit-reached')).toBeNull();
    fireEvent.click(screen.getByTestId('buy-button'));
    expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/queue/index?sessionId=7&showId=3' });
  });
});
