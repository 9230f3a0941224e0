import { fireEvent, render, screen } from '@testing-library/react';
import taro, { resetTaro } from './stubs/taro';
import { ok, refuse, serveApi } from './fake-api';
import { tick } from './fan';
import { confirmPageWith } from './confirm-page';
import { ID_A, ID_B, pendingOrder, PHONE, SAVED, SEAT_DRAFT } from './fixtures';
import ConfirmPage from '../../src/pages/confirm/index';
import { currentAdmission, loadEntry, saveEntry } from '../../src/services/queue';

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const ORDER = pendingOrder(NOW);

beforeEach(() => {
  resetTaro();
  jest.useFakeTimers({ now: NOW });
  confirmPageWith({ ...SEAT_DRAFT, queueEnabled: true }, { phone: PHONE });
  saveEntry({
    sessionId: '7',
    join: {},
    joinedAt: NOW - 60_000,
    state: 'admitted',
    admissionToken: 'adm.1',
    admissionExpiresAt: new Date(NOW + 5 * 60_000).toISOString(),
  });
});
afterEach(() => jest.useRealTimers());

async function pickSavedAndSubmit() {
  render(<ConfirmPage />);
  fireEvent.click(screen.getByTestId('saved-open'));
  await tick(0);
  const chips = screen.getAllByTestId('saved-chip');
  fireEvent.click(chips[0]!);
  fireEvent.click(chips[1]!);
  fireEvent.click(screen.getByTestId('submit-order'));
  await tick(0);
}

it('fills attendees from 常用观演人, shows the turn left, and buys with the admission token once', async () => {
  const sent = serveApi({
    'GET /api/v1/me/attendees': ok({ items: SAVED }),
    'POST /api/v1/orders': { statusCode: 201, data: ORDER },
  });
  render(<ConfirmPage />);
  expect(screen.getByTestId('turn-timer').textContent).toBe('已轮到您，剩余购票时间 05:00');
  expect(sent).toHaveLength(0); // nothing asked before the fan opens the list
  fireEvent.click(screen.getByTestId('saved-open'));
  await tick(0);
  const chips = screen.getAllByTestId('saved-chip');
  expect(chips.map((c) => c.textContent)).toEqual(['张*身份证 002X', '李*身份证 1232']);
  fireEvent.click(chips[1]!);
  fireEvent.click(chips[0]!);
  expect(screen.getAllByTestId('attendee-name').map((e) => (e as HTMLInputElement).value)).toEqual([
    '李四',
    '张三',
  ]);
  fireEvent.click(chips[1]!); // taken out again
  expect(screen.getAllByTestId('attendee-name').map((e) => (e as HTMLInputElement).value)).toEqual([
    '',
    '张三',
  ]);
  fireEvent.click(chips[1]!);
  fireEvent.click(screen.getByTestId('submit-order'));
  await tick(0);
  expect(sent.find((s) => s.key === 'POST /api/v1/orders')!.data).toEqual({
    sessionId: '7',
    seatIds: ['11', '12'],
    attendees: [
      { name: '李四', idType: 'id_card', idNumber: ID_B },
      { name: '张三', idType: 'id_card', idNumber: ID_A },
    ],
    admissionToken: 'adm.1',
    contactPhone: PHONE,
  });
  expect(screen.getByTestId('hold-timer')).toBeTruthy();
  expect(screen.queryByTestId('turn-timer')).toBeNull();
  expect(currentAdmission('7', NOW)).toBeUndefined(); // it bought its order
});

it('QUEUE_REQUIRED: the token is dropped and the fan goes back to the queue', async () => {
  serveApi({
    'GET /api/v1/me/attendees': ok({ items: SAVED }),
    'POST /api/v1/orders': refuse(403, 'QUEUE_REQUIRED'),
  });
  await pickSavedAndSubmit();
  const panel = screen.getByTestId('error-panel');
  expect(panel.textContent).toContain('请重新排队');
  fireEvent.click(screen.getByTestId('error-action'));
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/queue/index?sessionId=7&showId=3' });
  expect(currentAdmission('7', NOW)).toBeUndefined();
});

it.each([
  ['ID_TAKEN', 409, {}, '该证件已持有本场次门票（一证一票），请更换观演人或调整购票张数。', '更换观演人'],
  ['BLOCKED', 403, {}, '账号或设备存在异常，暂不能排队或购票。如有疑问请联系客服。', '返回首页'],
  [
    'HOLD_COOLDOWN',
    429,
    { 'Retry-After': '1740' },
    '您多次锁定座位未支付，暂不能下单，请约 29 分钟后再试。',
    '返回演出详情',
  ],
])('%s is explained with a way forward', async (code, status, header, message, action) => {
  serveApi({
    'GET /api/v1/me/attendees': ok({ items: SAVED }),
    'POST /api/v1/orders': refuse(status, code, header),
  });
  await pickSavedAndSubmit();
  const panel = screen.getByTestId('error-panel');
  expect(panel.dataset.code).toBe(code);
  expect(panel.textContent).toContain(message);
  expect(screen.getByTestId('error-action').textContent).toBe(action);
});

it('when the turn has run out, offers the queue again', async () => {
  serveApi({});
  render(<ConfirmPage />);
  await tick(5 * 60_000);
  expect(screen.getByTestId('turn-over').textContent).toContain('购票时间已结束');
  fireEvent.click(screen.getByTestId('turn-requeue'));
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/queue/index?sessionId=7&showId=3' });
});

it('tells the queued ID rule as the server has it: that ID among the attendees, the others anyone', async () => {
  const sent = serveApi({
    'GET /api/v1/me/attendees': ok({ items: SAVED }),
    'POST /api/v1/orders': { statusCode: 201, data: ORDER },
  });
  // The fan queued with 张三's ID (lower case as typed): it must be one of the order's attendees.
  saveEntry({ ...loadEntry('7')!, join: { idType: 'id_card', idNumber: ID_A.toLowerCase() } });
  render(<ConfirmPage />);
  expect(screen.getByTestId('queued-id').textContent).toBe(
    '排队证件：身份证 110***********002X该证件持有人须为本订单观演人之一，其余观演人可为同行亲友（每人一证一票）。',
  );
  const type = (i: number, name: string, id: string) => {
    fireEvent.change(screen.getAllByTestId('attendee-name')[i]!, { target: { value: name } });
    fireEvent.change(screen.getAllByTestId('attendee-id')[i]!, { target: { value: id } });
  };
  type(0, '李四', ID_B);
  type(1, '王五', '110105198001011238');
  fireEvent.click(screen.getByTestId('submit-order'));
  await tick(0);
  // Neither is the queued ID: said here, nothing sent (the server would refuse QUEUE_ID_NOT_ATTENDEE).
  expect(sent.filter((s) => s.key === 'POST /api/v1/orders')).toHaveLength(0);
  expect(taro.showToast).toHaveBeenLastCalledWith(
    expect.objectContaining({ title: '排队证件须为观演人之一' }),
  );
  expect(screen.getByTestId('queued-id').className).toContain('queued-id--missing');

  type(1, '张三', ID_A); // the queued ID holder plus a friend: the server accepts that order
  fireEvent.click(screen.getByTestId('submit-order'));
  await tick(0);
  expect(sent.filter((s) => s.key === 'POST /api/v1/orders')).toHaveLength(1);
});
