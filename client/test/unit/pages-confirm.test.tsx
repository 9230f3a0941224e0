import { act, fireEvent, render, screen } from '@testing-library/react';
import taro, { resetTaro } from './stubs/taro';
import { confirmPageWith } from './confirm-page';
import { ID_A, ID_B, PAY_RESPONSE, pendingOrder, PHONE, SEAT_DRAFT } from './fixtures';
import ConfirmPage from '../../src/pages/confirm/index';
import { loadDraft, saveDraft } from '../../src/services/draft';

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();

type Res = { statusCode: number; data?: unknown; header?: Record<string, string> };
const answer = (...res: Res[]) =>
  res.forEach((r) => taro.request.mockResolvedValueOnce({ header: {}, ...r }));
const call = (i: number) => taro.request.mock.calls[i][0];
const order = pendingOrder(NOW);
/** The order is placed and its pay sheet opens; the fan closes the sheet (the order stays pending). */
const placedThenSheetClosed = () => {
  answer({ statusCode: 201, data: order }, { statusCode: 200, data: PAY_RESPONSE });
  taro.requestPayment.mockRejectedValueOnce({ errMsg: 'requestPayment:fail cancel' });
};

beforeEach(() => {
  resetTaro();
  jest.useFakeTimers({ now: NOW });
  // The fan ordered before: 联系手机 is filled in from then.
  confirmPageWith(SEAT_DRAFT, { phone: PHONE });
});
afterEach(() => jest.useRealTimers());

function fill(i: number, name: string, id: string) {
  fireEvent.change(screen.getAllByTestId('attendee-name')[i]!, { target: { value: name } });
  fireEvent.change(screen.getAllByTestId('attendee-id')[i]!, { target: { value: id } });
}

/** 确认订单 with both attendees filled in validly. */
function renderFilled() {
  render(<ConfirmPage />);
  fill(0, '张三', ID_A);
  fill(1, '李四', ID_B);
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('submit-order'));
    await jest.advanceTimersByTimeAsync(0);
  });
}

it('validates attendees, then holds the seats with a countdown to expireAt', async () => {
  render(<ConfirmPage />);
  expect(screen.getByTestId('confirm-total').textContent).toBe('¥2,560.50');
  await submit();
  expect(taro.request).not.toHaveBeenCalled();
  expect(screen.getAllByText('请填写观演人姓名')).toHaveLength(2);

  fill(0, '张三', ID_A);
  fill(1, '李四', ID_A);
  await submit();
  expect(screen.getByText('同一证件只能购买一张票')).toBeTruthy();

  fill(1, '李四', ID_B.toLowerCase());
  placedThenSheetClosed();
  await submit();
  expect(call(0)).toMatchObject({
    url: '/api/v1/orders',
    method: 'POST',
    data: {
      sessionId: '7',
      seatIds: ['11', '12'],
      attendees: [
        { name: '张三', idType: 'id_card', idNumber: ID_A },
        { name: '李四', idType: 'id_card', idNumber: ID_B },
      ],
      contactPhone: PHONE,
    },
  });
  // One tap: WeChat Pay opened straight after the order; the fan closed it, the order is kept.
  expect(call(1)).toMatchObject({ url: '/api/v1/orders/N100/pay', method: 'POST' });
  expect(taro.requestPayment).toHaveBeenCalledWith(PAY_RESPONSE.payParams);
  expect(taro.showToast).toHaveBeenLastCalledWith(
    expect.objectContaining({ title: '已取消支付，订单已保留，请在倒计时内支付' }),
  );
  expect(screen.getByTestId('hold-timer').textContent).toContain('15:00');
  await act(() => jest.advanceTimersByTimeAsync(61_000));
  expect(screen.getByTestId('hold-timer').textContent).toContain('13:59');
  expect(screen.getByTestId('pay-button').textContent).toBe('支付 ¥2,560.50');
  expect(screen.getAllByTestId('attendee-summary')[0]!.textContent).toContain('110***********002X');
  await act(() => jest.advanceTimersByTimeAsync(14 * 60_000));
  expect(screen.getByTestId('hold-expired').textContent).toContain('支付超时');
});

it('sends the fan back to the open seat map when a seat was just taken', async () => {
  renderFilled();
  answer({ statusCode: 409, data: { error: { code: 'SEAT_TAKEN', message: '座位已被锁定' } } });
  await submit();
  const panel = screen.getByTestId('error-panel');
  expect(panel.dataset.code).toBe('SEAT_TAKEN');
  expect(panel.textContent).toContain('手慢了，座位刚被抢走');
  fireEvent.click(screen.getByTestId('error-action'));
  expect(taro.navigateBack).toHaveBeenCalledWith({ delta: 1 });
});

it('one tap places the order and pays it: 订单详情 waits for the ticket', async () => {
  renderFilled();
  answer({ statusCode: 201, data: order }, { statusCode: 200, data: PAY_RESPONSE });
  await submit();
  expect(taro.request).toHaveBeenCalledTimes(2);
  expect(call(1)).toMatchObject({ url: '/api/v1/orders/N100/pay', method: 'POST' });
  expect(taro.requestPayment).toHaveBeenCalledTimes(1);
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/order/index?orderNo=N100&result=success' });
  expect(loadDraft('7')).toBeUndefined(); // bought: nothing left to confirm
});

it('a closed pay sheet keeps the order: 支付 opens it again without placing another order', async () => {
  renderFilled();
  placedThenSheetClosed();
  await submit();
  expect(screen.queryByTestId('submit-order')).toBeNull();
  answer({ statusCode: 200, data: PAY_RESPONSE });
  await act(async () => {
    fireEvent.click(screen.getByTestId('pay-button'));
    await jest.advanceTimersByTimeAsync(0);
  });
  expect(taro.request.mock.calls.map((c) => `${c[0].method} ${c[0].url}`)).toEqual([
    'POST /api/v1/orders',
    'POST /api/v1/orders/N100/pay',
    'POST /api/v1/orders/N100/pay',
  ]);
  expect(taro.requestPayment).toHaveBeenCalledTimes(2);
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/order/index?orderNo=N100&result=success' });
});

it('believes the server over the countdown when paying is refused as ORDER_EXPIRED', async () => {
  renderFilled();
  placedThenSheetClosed();
  await submit();
  expect(screen.getByTestId('hold-timer').textContent).toContain('15:00');
  answer({ statusCode: 409, data: { error: { code: 'ORDER_EXPIRED', message: '订单已过期' } } });
  await act(async () => {
    fireEvent.click(screen.getByTestId('pay-button'));
    await jest.advanceTimersByTimeAsync(0);
  });
  expect(screen.getByTestId('error-panel').textContent).toContain('支付时间已过，座位已释放，请重新下单。');
  expect(screen.getByTestId('hold-expired').textContent).toContain('支付超时');
  expect(screen.queryByTestId('pay-button')).toBeNull();
  fireEvent.click(screen.getByTestId('error-action'));
  expect(taro.navigateBack).toHaveBeenCalledWith({ delta: 1 });
});

it('retries a failed submit with the same Idempotency-Key', async () => {
  renderFilled();
  taro.request.mockRejectedValueOnce(new Error('timeout'));
  await submit();
  expect(screen.getByTestId('error-panel').dataset.code).toBe('NETWORK');
  placedThenSheetClosed();
  await act(async () => {
    fireEvent.click(screen.getByTestId('error-action'));
    await jest.advanceTimersByTimeAsync(0);
  });
  expect(screen.getByTestId('hold-timer')).toBeTruthy();
  expect(call(1).header['Idempotency-Key']).toBe(call(0).header['Idempotency-Key']);
});

it('backs off after RATE_LIMITED and retries by itself', async () => {
  renderFilled();
  answer({
    statusCode: 429,
    data: { error: { code: 'RATE_LIMITED', message: '' } },
    header: { 'Retry-After': '10' },
  });
  await submit();
  expect(screen.getByTestId('error-panel').textContent).toContain('约 10 秒后');
  placedThenSheetClosed();
  act(() => fireEvent.click(screen.getByTestId('error-action')));
  expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '10 秒后自动重试' }));
  await act(() => jest.advanceTimersByTimeAsync(10_000));
  expect(screen.getByTestId('hold-timer')).toBeTruthy();
  expect(call(1).header['Idempotency-Key']).toBe(call(0).header['Idempotency-Key']);
});

it('a reload after submitting shows the pending order again (countdown and 支付), never a lost draft', async () => {
  const first = render(<ConfirmPage />);
  fill(0, '张三', ID_A);
  fill(1, '李四', ID_B);
  placedThenSheetClosed();
  await submit();
  expect(screen.getByTestId('hold-timer')).toBeTruthy();
  first.unmount();

  // The page again from scratch (a browser reload): it reads the order, it does not post one.
  await act(() => jest.advanceTimersByTimeAsync(60_000));
  answer({ statusCode: 200, data: order });
  render(<ConfirmPage />);
  await act(() => jest.advanceTimersByTimeAsync(0));
  expect(screen.queryByText('选座信息已失效，请重新选座')).toBeNull();
  expect(call(2)).toMatchObject({ url: '/api/v1/orders/N100', method: 'GET' });
  expect(screen.getByTestId('hold-timer').textContent).toContain('14:00');
  expect(screen.getByTestId('pay-button').textContent).toBe('支付 ¥2,560.50');
  expect(screen.queryByTestId('submit-order')).toBeNull();
  expect(taro.request).toHaveBeenCalledTimes(3);
  expect(taro.requestPayment).toHaveBeenCalledTimes(1); // a reload does not open the sheet by itself
});

it('a reload after the order was paid or cancelled goes to 订单详情', async () => {
  saveDraft({ ...SEAT_DRAFT, orderNo: 'N100' });
  answer({ statusCode: 200, data: { ...order, status: 'ticketed' } });
  render(<ConfirmPage />);
  await act(() => jest.advanceTimersByTimeAsync(0));
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/order/index?orderNo=N100' });
  expect(taro.request).toHaveBeenCalledTimes(1);
});
