import { fireEvent, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import taro from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, serveApi } from './fake-api';
import MePage from '../../src/pages/me/index';
import CompClaimPage from '../../src/pages/comp/index';
import InvitePage from '../../src/packages/staff/invite/index';

loggedInFan();

it('我的 opens 领取赠票', async () => {
  serveApi({ 'GET /api/v1/staff/me': ok({ shows: [] }) });
  render(<MePage />);
  await tick();
  fireEvent.click(screen.getByTestId('me-comp'));
  expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/comp/index' });
});

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

/** The two pages where one code is typed and sent: what each asks for, answers and opens. */
const PAGES: {
  what: string;
  Page: ComponentType;
  route: string;
  refusal: { statusCode: number; code: string; message: string };
  done: unknown;
  testids: { code: string; submit: string; done: string; next: string };
  typed: [bad: string, good: string, sent: string];
  hint: string;
  shown: string;
  opens: [method: 'reLaunch' | 'redirectTo', url: string];
}[] = [
  {
    what: 'a claim code is checked, claimed, and the tickets shown in 票夹',
    Page: CompClaimPage,
    route: 'POST /api/v1/comps/claim',
    refusal: { statusCode: 409, code: 'COMP_ALREADY_CLAIMED', message: '该赠票已被其他微信账号领取' },
    done: { orderId: '9', orderNo: '2612019', sessionId: '3', tickets: 2 },
    testids: { code: 'comp-code', submit: 'comp-claim', done: 'comp-done', next: 'comp-tickets' },
    typed: ['abc', 'abcdefgh23', 'ABCDEFGH23'],
    hint: '领取码为 10 位字母或数字',
    shown: '已领取 2 张赠票',
    opens: ['reLaunch', '/pages/tickets/index'],
  },
  {
    what: 'an invite code is checked, redeemed, and its shows listed',
    Page: InvitePage,
    route: 'POST /api/v1/staff/invites/redeem',
    refusal: { statusCode: 400, code: 'VALIDATION_FAILED', message: '邀请码已过期' },
    done: { shows: [{ id: '3', title: '星河巡回演唱会' }] },
    testids: { code: 'invite-code', submit: 'invite-redeem', done: 'invite-done', next: 'invite-scan' },
    typed: ['abc', 'gate2027abcd', 'GATE2027ABCD'],
    hint: '邀请码为 8–16 位字母或数字',
    shown: '星河巡回演唱会',
    opens: ['redirectTo', '/packages/staff/scan/index'],
  },
];

it.each(PAGES)('$what; a refused code says why', async (p) => {
  const { statusCode, code, message } = p.refusal;
  const sent = serveApi({ [p.route]: [{ statusCode, data: { error: { code, message } } }, ok(p.done)] });
  const type = (value: string) => {
    fireEvent.change(screen.getByTestId(p.testids.code), { target: { value } });
    fireEvent.click(screen.getByTestId(p.testids.submit));
  };
  render(<p.Page />);
  type(p.typed[0]);
  expect(screen.getByText(p.hint)).toBeTruthy();
  expect(sent).toHaveLength(0);
  type(p.typed[1]);
  await tick();
  expect(sent[0]!.data).toEqual({ code: p.typed[2] });
  expect(screen.getByTestId('error-panel').textContent).toContain(message);
  fireEvent.click(screen.getByTestId('error-action'));
  fireEvent.click(screen.getByTestId(p.testids.submit));
  await tick();
  expect(screen.getByTestId(p.testids.done).textContent).toContain(p.shown);
  fireEvent.click(screen.getByTestId(p.testids.next));
  expect(taro[p.opens[0]]).toHaveBeenCalledWith({ url: p.opens[1] });
});
