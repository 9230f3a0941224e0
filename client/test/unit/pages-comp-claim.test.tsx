import { fireEvent, render, screen } from '@testing-library/react';
import taro from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, serveApi } from './fake-api';
import MePage from '../../src/pages/me/index';
import CompClaimPage from '../../src/pages/comp/index';

loggedInFan();

it('我的 opens 领取赠票', async () => {
  serveApi({ 'GET /api/v1/staff/me': ok({ shows: [] }) });
  render(<MePage />);
  await tick();
  fireEvent.click(screen.getByTestId('me-comp'));
  expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/comp/index' });
});

it('a claim code is checked, claimed, and the tickets shown in 票夹; a refused code says why', async () => {
  const sent = serveApi({
    'POST /api/v1/comps/claim': [
      {
        statusCode: 409,
        data: { error: { code: 'COMP_ALREADY_CLAIMED', message: '该赠票已被其他微信账号领取' } },
      },
      ok({ orderId: '9', orderNo: '2612019', sessionId: '3', tickets: 2 }),
    ],
  });
  render(<CompClaimPage />);
  fireEvent.change(screen.getByTestId('comp-code'), { target: { value: 'abc' } });
  fireEvent.click(screen.getByTestId('comp-claim'));
  expect(screen.getByText('领取码为 10 位字母或数字')).toBeTruthy();
  expect(sent).toHaveLength(0);
  fireEvent.change(screen.getByTestId('comp-code'), { target: { value: 'abcdefgh23' } });
  fireEvent.click(screen.getByTestId('comp-claim'));
  await tick();
  expect(sent[0]!.data).toEqual({ code: 'ABCDEFGH23' });
  expect(screen.getByTestId('error-panel').textContent).toContain('该赠票已被其他微信账号领取');
  fireEvent.click(screen.getByTestId('error-action'));
  fireEvent.click(screen.getByTestId('comp-claim'));
  await tick();
  expect(screen.getByTestId('comp-done').textContent).toContain('已领取 2 张赠票');
  fireEvent.click(screen.getByTestId('comp-tickets'));
  expect(taro.reLaunch).toHaveBeenCalledWith({ url: '/pages/tickets/index' });
});
