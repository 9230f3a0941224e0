import { NOTICE_KINDS } from '@showtix/shared-types';
import { act, fireEvent, screen } from '@testing-library/react';
import taro, { router } from './stubs/taro';
import { ok } from './fake-api';
import { pendingVipOrder } from './fixtures';
import { loggedInFan, tick } from './fan';
import { openOrderPage } from './order-page';

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const ORDER = pendingVipOrder(NOW);
/** The simulator's template ids (TPL_<KIND>): what GET /api/v1/notices/templates answers in development. */
const TEMPLATES = Object.fromEntries(NOTICE_KINDS.map((kind) => [kind, `TPL_${kind.toUpperCase()}`]));
const PAY = {
  prepayId: 'wx1',
  cashierUrl: null,
  payParams: { timeStamp: '1', nonceStr: 'n', package: 'prepay_id=wx1', signType: 'RSA', paySign: 's' },
};

const stub = taro as unknown as Record<string, jest.Mock>;
loggedInFan(NOW);
beforeEach(() => {
  router.params = { orderNo: 'N100' };
  stub.requestSubscribeMessage = jest.fn();
});

/** The subscribe dialog as the fan answers it: for 出票, 退款 and the reminder, in that order. */
const fanAnswers = (ticketed: string, refund: string, reminder: string) => async () => ({
  errMsg: 'requestSubscribeMessage:ok',
  TPL_TICKETED: ticketed,
  TPL_REFUND: refund,
  TPL_REMINDER: reminder,
});

async function payWith(dialog: () => Promise<unknown>, templatesKnown = true) {
  if (templatesKnown) taro.setStorageSync('showtix.noticeTemplates', JSON.stringify(TEMPLATES));
  stub.requestSubscribeMessage!.mockImplementation(dialog);
  const sent = await openOrderPage(ORDER, {
    routes: { 'POST /api/v1/orders/N100/pay': ok(PAY), 'POST /api/v1/me/subscriptions': ok({ items: [] }) },
  });
  await act(async () => {
    fireEvent.click(screen.getByTestId('pay-again'));
    await jest.advanceTimersByTimeAsync(0);
  });
  await tick();
  return sent;
}

it('asks for notice consent right before paying and tells the server what the fan answered', async () => {
  const sent = await payWith(fanAnswers('accept', 'reject', 'accept'));
  expect(stub.requestSubscribeMessage).toHaveBeenCalledWith({
    tmplIds: ['TPL_TICKETED', 'TPL_REFUND', 'TPL_REMINDER'],
  });
  expect(stub.requestPayment).toHaveBeenCalledTimes(1);
  expect(stub.requestSubscribeMessage!.mock.invocationCallOrder[0]).toBeLessThan(
    stub.requestPayment!.mock.invocationCallOrder[0]!,
  );
  const post = sent.find((s) => s.key === 'POST /api/v1/me/subscriptions');
  expect(post?.data).toEqual({
    requestId: expect.stringMatching(/^sub-[\w-]+$/),
    results: { TPL_TICKETED: 'accept', TPL_REFUND: 'reject', TPL_REMINDER: 'accept' },
  });
  expect(taro.redirectTo).toHaveBeenCalled(); // paid: on to the order's result
});

it('pays all the same when the fan refuses every notice', async () => {
  const sent = await payWith(fanAnswers('reject', 'ban', 'reject'));
  expect(stub.requestPayment).toHaveBeenCalledTimes(1);
  expect(sent.map((s) => s.key)).toContain('POST /api/v1/orders/N100/pay');
});

it('pays all the same when WeChat shows no dialog (switched off, failed)', async () => {
  const sent = await payWith(async () => {
    throw Object.assign(new Error('requestSubscribeMessage:fail'), { errCode: 20004 });
  });
  expect(stub.requestPayment).toHaveBeenCalledTimes(1);
  expect(sent.map((s) => s.key)).not.toContain('POST /api/v1/me/subscriptions');
});

it('pays without a dialog when the template ids have not arrived yet (the tap cannot wait for them)', async () => {
  const sent = await payWith(async () => ({}), false);
  expect(stub.requestSubscribeMessage).not.toHaveBeenCalled();
  expect(stub.requestPayment).toHaveBeenCalledTimes(1);
  expect(sent.map((s) => s.key)).not.toContain('GET /api/v1/notices/templates');
});

it('in the browser (H5), asks the WeChat simulator for the fan the H5 build logs in as', async () => {
  const { promptSubscribe } = await import('../../src/services/subscribe-prompt.h5');
  const { browserOpenid } = await import('../../src/services/login-code.h5');
  taro.request.mockResolvedValueOnce({
    statusCode: 200,
    header: {},
    data: { errMsg: 'requestSubscribeMessage:ok', TPL_TICKETED: 'accept', TPL_REFUND: 'reject' },
  });
  const answers = await promptSubscribe(['TPL_TICKETED', 'TPL_REFUND']);
  expect(answers).toEqual({ TPL_TICKETED: 'accept', TPL_REFUND: 'reject' });
  expect(taro.request).toHaveBeenCalledWith(
    expect.objectContaining({
      url: 'http://127.0.0.1:3100/sim/subscribe',
      method: 'POST',
      data: { openid: browserOpenid(), tmplIds: ['TPL_TICKETED', 'TPL_REFUND'] },
    }),
  );
  taro.request.mockResolvedValueOnce({ statusCode: 400, header: {}, data: { ok: false, code: '20001' } });
  await expect(promptSubscribe(['TPL_NOPE'])).rejects.toThrow('requestSubscribeMessage:fail 400');
});
