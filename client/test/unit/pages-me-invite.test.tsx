import { fireEvent, render, screen } from '@testing-library/react';
import taro from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, serveApi } from './fake-api';
import MePage from '../../src/pages/me/index';
import InvitePage from '../../src/packages/staff/invite/index';

loggedInFan();

it('我的 shows 检票工作台 only to staff', async () => {
  serveApi({ 'GET /api/v1/staff/me': ok({ shows: [] }) });
  const fan = render(<MePage />);
  await tick();
  expect(screen.queryByTestId('me-staff-scan')).toBeNull();
  expect(screen.getByTestId('me-staff-invite')).toBeTruthy();
  fireEvent.click(screen.getByTestId('me-attendees'));
  expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/attendees/index' });
  fan.unmount();

  serveApi({ 'GET /api/v1/staff/me': ok({ shows: [{ id: '3', title: '星河巡回演唱会' }] }) });
  render(<MePage />);
  await tick();
  expect(screen.getByTestId('me-staff-scan').textContent).toContain('可检 1 个演出');
  fireEvent.click(screen.getByTestId('me-staff-scan'));
  expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/packages/staff/scan/index' });
});

it('an invite code is checked, redeemed, and its shows listed; a refused code says why', async () => {
  const sent = serveApi({
    'POST /api/v1/staff/invites/redeem': [
      { statusCode: 400, data: { error: { code: 'VALIDATION_FAILED', message: '邀请码已过期' } } },
      ok({ shows: [{ id: '3', title: '星河巡回演唱会' }] }),
    ],
  });
  render(<InvitePage />);
  fireEvent.change(screen.getByTestId('invite-code'), { target: { value: 'abc' } });
  fireEvent.click(screen.getByTestId('invite-redeem'));
  expect(screen.getByText('邀请码为 8–16 位字母或数字')).toBeTruthy();
  expect(sent).toHaveLength(0);
  fireEvent.change(screen.getByTestId('invite-code'), { target: { value: 'gate2027abcd' } });
  fireEvent.click(screen.getByTestId('invite-redeem'));
  await tick();
  expect(sent[0]!.data).toEqual({ code: 'GATE2027ABCD' });
  expect(screen.getByTestId('error-panel').textContent).toContain('邀请码已过期');
  fireEvent.click(screen.getByTestId('error-action'));
  fireEvent.click(screen.getByTestId('invite-redeem'));
  await tick();
  expect(screen.getByTestId('invite-done').textContent).toContain('星河巡回演唱会');
  fireEvent.click(screen.getByTestId('invite-scan'));
  expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/packages/staff/scan/index' });
});
