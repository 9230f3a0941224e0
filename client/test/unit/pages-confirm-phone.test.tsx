import { fireEvent, render, screen } from '@testing-library/react';
import taro, { resetTaro } from './stubs/taro';
import { refuse, serveApi, type Sent } from './fake-api';
import { tick } from './fan';
import { confirmPageWith, typePhone } from './confirm-page';
import { pendingOrder, PHONE, PHONE_MASKED, SEAT_DRAFT } from './fixtures';
import ConfirmPage from '../../src/pages/confirm/index';

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const ORDER = pendingOrder(NOW);
// No attendees to fill in: these tests are about the 联系手机 alone.
const DRAFT = { ...SEAT_DRAFT, realName: false };

const creates = (sent: Sent[]) => sent.filter((s) => s.key === 'POST /api/v1/orders');
const phoneField = () => screen.getByTestId('contact-phone') as HTMLInputElement;

async function submit() {
  fireEvent.click(screen.getByTestId('submit-order'));
  await tick(0);
}

beforeEach(() => {
  resetTaro();
  jest.useFakeTimers({ now: NOW });
});
afterEach(() => jest.useRealTimers());

it('refuses an empty or invalid 联系手机 with a message, and sends nothing', async () => {
  confirmPageWith(DRAFT);
  const sent = serveApi({ 'POST /api/v1/orders': { statusCode: 201, data: ORDER } });
  render(<ConfirmPage />);
  expect(phoneField().value).toBe(''); // a first order: nothing to start from
  expect(phoneField().placeholder).toBe('用于订单联系与售后');

  await submit();
  expect(screen.getByTestId('contact-phone-error').textContent).toBe('请填写联系手机');
  expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '请填写联系手机' }));

  for (const wrong of ['1380013800', '23800138000', '138001380001']) {
    typePhone(wrong);
    expect(screen.queryByTestId('contact-phone-error')).toBeNull(); // typing clears the complaint
    await submit();
    expect(screen.getByTestId('contact-phone-error').textContent).toBe('请输入正确的 11 位手机号');
  }
  expect(sent).toHaveLength(0);
  expect(screen.queryByTestId('hold-timer')).toBeNull();
});

it('sends the number normalised, remembers it, and shows it masked once the order holds the seats', async () => {
  confirmPageWith(DRAFT);
  const sent = serveApi({ 'POST /api/v1/orders': { statusCode: 201, data: ORDER } });
  render(<ConfirmPage />);
  typePhone('138-0013-8000');
  await submit();
  expect(creates(sent)[0]!.data).toEqual({ sessionId: '7', seatIds: ['11', '12'], contactPhone: PHONE });
  expect(taro.getStorageSync('showtix.contactPhone')).toBe(PHONE);
  expect(screen.getByTestId('hold-timer')).toBeTruthy();
  expect(screen.queryByTestId('contact-phone')).toBeNull();
  expect(screen.getByTestId('contact-phone-summary').textContent).toBe(`联系手机${PHONE_MASKED}`);
});

it('starts from the number of the last order, and keeps it when an order is refused', async () => {
  confirmPageWith(DRAFT, { phone: PHONE });
  const sent = serveApi({ 'POST /api/v1/orders': refuse(409, 'SEAT_TAKEN') });
  render(<ConfirmPage />);
  expect(phoneField().value).toBe(PHONE);
  typePhone('13912345678');
  await submit();
  expect(creates(sent)[0]!.data).toMatchObject({ contactPhone: '13912345678' });
  expect(screen.getByTestId('error-panel').dataset.code).toBe('SEAT_TAKEN');
  expect(taro.getStorageSync('showtix.contactPhone')).toBe(PHONE); // no order came of it
});

it('a retry sends the same body under the same key; another number is another request', async () => {
  confirmPageWith(DRAFT, { phone: PHONE });
  const sent = serveApi({
    'POST /api/v1/orders': ['network', 'network', 'network', { statusCode: 201, data: ORDER }],
  });
  render(<ConfirmPage />);
  await submit();
  expect(screen.getByTestId('error-panel').dataset.code).toBe('NETWORK');
  fireEvent.click(screen.getByTestId('error-action')); // 重试
  await tick(0);
  const [first, retry] = creates(sent);
  expect(retry!.data).toEqual(first!.data);
  expect(retry!.header['Idempotency-Key']).toBe(first!.header['Idempotency-Key']);

  // The fan corrects the number before trying again: a new request, with a key of its own.
  fireEvent.click(screen.getByText('知道了'));
  typePhone('13912345678');
  await submit();
  fireEvent.click(screen.getByTestId('error-action'));
  await tick(0);
  const [, , changed, again] = creates(sent);
  expect(changed!.data).toMatchObject({ contactPhone: '13912345678' });
  expect(changed!.header['Idempotency-Key']).not.toBe(first!.header['Idempotency-Key']);
  expect(again!.data).toEqual(changed!.data);
  expect(again!.header['Idempotency-Key']).toBe(changed!.header['Idempotency-Key']);
  expect(screen.getByTestId('hold-timer')).toBeTruthy();
  expect(taro.getStorageSync('showtix.contactPhone')).toBe('13912345678');
});

it('real-name sessions check attendees and the number in one go', async () => {
  confirmPageWith(SEAT_DRAFT);
  const sent = serveApi({});
  render(<ConfirmPage />);
  await submit();
  expect(screen.getAllByText('请填写观演人姓名')).toHaveLength(2);
  expect(screen.getByTestId('contact-phone-error').textContent).toBe('请填写联系手机');
  expect(creates(sent)).toHaveLength(0);
});
