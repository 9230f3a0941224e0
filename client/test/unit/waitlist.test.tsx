import { fireEvent, render, screen } from '@testing-library/react';
import taro from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, refuse, serveApi } from './fake-api';
import { ID_A, ID_B, SAVED, SESSION, TIERS } from './fixtures';
import { MyWaitlist, WaitlistJoin } from '../../src/components/Waitlist';

/** 候补 (issue 16): joining a sold-out tier's line, and 我的候补 with an offer to pay or decline. */
loggedInFan(new Date('2026-12-01T04:00:00.000Z').getTime());

const SOLD_OUT = { ...SESSION, status: 'sold_out' as const, realName: false, purchaseLimit: 2 };

const entry = (id: string, state: string, extra: Record<string, unknown> = {}) => ({
  id,
  sessionId: '7',
  tierId: TIERS[0]!.id,
  tierName: TIERS[0]!.name,
  priceFen: TIERS[0]!.priceFen,
  quantity: 2,
  state,
  ahead: 0,
  orderNo: null,
  offerExpiresAt: null,
  showTitle: '星河巡回演唱会',
  startsAt: '2027-01-15T11:30:00.000Z',
  createdAt: '2026-12-01T03:00:00.000Z',
  attendees: [],
  endReason: null,
  ...extra,
});

it('候补 joins the chosen tier for the chosen quantity (within the limit) and says so; a refusal is explained', async () => {
  const sent = serveApi({
    'POST /api/v1/sessions/7/waitlist': [
      { statusCode: 201, data: entry('5', 'waiting') },
      refuse(409, 'WAITLIST_EXISTS'),
    ],
  });
  render(<WaitlistJoin s={SOLD_OUT} />);
  expect(screen.getByTestId('waitlist-join').textContent).toContain('已售罄');
  fireEvent.click(screen.getByTestId('waitlist-plus'));
  fireEvent.click(screen.getByTestId('waitlist-plus')); // capped at the purchase limit
  expect(screen.getByTestId('waitlist-quantity').textContent).toBe('2');
  fireEvent.click(screen.getByTestId(`waitlist-join-${TIERS[0]!.id}`));
  await tick();
  const joins = sent.filter((s) => s.key === 'POST /api/v1/sessions/7/waitlist');
  expect(joins.map((s) => s.data)).toEqual([{ tierId: TIERS[0]!.id, quantity: 2 }]);
  expect(taro.showToast).toHaveBeenLastCalledWith(
    expect.objectContaining({ title: '已加入候补，有票退回时将为您保留并通知' }),
  );
  fireEvent.click(screen.getByTestId(`waitlist-join-${TIERS[0]!.id}`));
  await tick();
  expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'WAITLIST_EXISTS' }));
});

describe('a real-name session', () => {
  const REAL_NAME = { ...SOLD_OUT, realName: true };
  const joins = (sent: ReturnType<typeof serveApi>) =>
    sent.filter((s) => s.key === 'POST /api/v1/sessions/7/waitlist').map((s) => s.data);
  const type = (i: number, name: string, id: string) => {
    fireEvent.change(screen.getAllByTestId('attendee-name')[i]!, { target: { value: name } });
    fireEvent.change(screen.getAllByTestId('attendee-id')[i]!, { target: { value: id } });
  };

  it('候补 asks for one attendee per ticket, checks them before sending, and sends them with the join', async () => {
    const sent = serveApi({
      'POST /api/v1/sessions/7/waitlist': { statusCode: 201, data: entry('5', 'waiting') },
    });
    render(<WaitlistJoin s={REAL_NAME} />);
    expect(screen.getByTestId('waitlist-attendees').textContent).toContain('一人一证一票');
    expect(screen.getAllByTestId('attendee')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('waitlist-plus'));
    expect(screen.getAllByTestId('attendee').map((a) => a.textContent)).toEqual([
      expect.stringContaining('第 1 张'),
      expect.stringContaining('第 2 张'),
    ]);
    // nothing typed: complaints under the fields, no request
    fireEvent.click(screen.getByTestId(`waitlist-join-${TIERS[0]!.id}`));
    await tick();
    expect(joins(sent)).toEqual([]);
    expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '请完善观演人信息' }));
    expect(screen.getByTestId('waitlist-join').textContent).toContain('请填写观演人姓名');
    // one ID twice is refused here too (one ID, one ticket)
    type(0, '张三', ID_A);
    type(1, '李四', ID_A.toLowerCase());
    fireEvent.click(screen.getByTestId(`waitlist-join-${TIERS[0]!.id}`));
    await tick();
    expect(joins(sent)).toEqual([]);
    expect(screen.getByTestId('waitlist-join').textContent).toContain('同一证件只能购买一张票');
    type(1, ' 李四 ', ` ${ID_B} `);
    fireEvent.click(screen.getByTestId(`waitlist-join-${TIERS[0]!.id}`));
    await tick();
    expect(joins(sent)).toEqual([
      {
        tierId: TIERS[0]!.id,
        quantity: 2,
        attendees: [
          { name: '张三', idType: 'id_card', idNumber: ID_A },
          { name: '李四', idType: 'id_card', idNumber: ID_B },
        ],
      },
    ]);
    // one ticket fewer: the second attendee goes, the first stays
    fireEvent.click(screen.getByTestId('waitlist-minus'));
    expect(screen.getAllByTestId('attendee-name').map((e) => (e as HTMLInputElement).value)).toEqual([
      '张三',
    ]);
  });

  it("fills the attendees from 常用观演人; the server's one-ID-one-ticket refusal is shown", async () => {
    const sent = serveApi({
      'GET /api/v1/me/attendees': ok({ items: SAVED }),
      'POST /api/v1/sessions/7/waitlist': refuse(409, 'ID_TAKEN'),
    });
    render(<WaitlistJoin s={REAL_NAME} />);
    fireEvent.click(screen.getByTestId('saved-open'));
    await tick();
    fireEvent.click(screen.getAllByTestId('saved-chip')[1]!);
    fireEvent.click(screen.getByTestId(`waitlist-join-${TIERS[1]!.id}`));
    await tick();
    expect(joins(sent)).toEqual([
      { tierId: TIERS[1]!.id, quantity: 1, attendees: [{ name: '李四', idType: 'id_card', idNumber: ID_B }] },
    ]);
    expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'ID_TAKEN' }));
  });

  it('a session that is not real-name asks for no attendees', () => {
    render(<WaitlistJoin s={SOLD_OUT} />);
    expect(screen.queryByTestId('waitlist-attendees')).toBeNull();
  });
});

it('我的候补: a waiting entry shows its place and can be left; an offer is paid on its order page or declined', async () => {
  const sent = serveApi({
    'GET /api/v1/me/waitlist': ok({
      items: [
        entry('9', 'offered', { orderNo: 'N900', offerExpiresAt: '2026-12-01T04:15:00.000Z' }),
        entry('8', 'waiting', { ahead: 3 }),
        entry('6', 'lapsed'),
        entry('4', 'ended', {
          endReason: 'attendee_taken',
          attendees: [{ name: '张*', idMasked: '110***********002X' }],
        }),
      ],
    }),
    'DELETE /api/v1/waitlist/9': ok(entry('9', 'declined')),
  });
  render(<MyWaitlist />);
  await tick();
  const states = screen.getAllByTestId('waitlist-state').map((e) => e.textContent);
  expect(states[0]).toContain('候补成功，待支付');
  expect(states[1]).toBe('候补中（前面还有 3 位）');
  expect(states[2]).toBe('已过期');
  expect(states[3]).toBe('候补结束（观演人已持有本场次门票，名额已顺延给下一位）');
  expect(screen.getByTestId('waitlist-attendees-of').textContent).toBe('观演人：张* 110***********002X');
  // only live entries can be left; only an offer can be paid
  expect(screen.getAllByTestId('waitlist-leave').map((b) => b.textContent)).toEqual(['放弃', '取消候补']);
  fireEvent.click(screen.getByTestId('waitlist-pay'));
  expect(taro.navigateTo).toHaveBeenLastCalledWith({ url: '/pages/order/index?orderNo=N900' });
  fireEvent.click(screen.getAllByTestId('waitlist-leave')[0]!);
  await tick();
  expect(sent.map((s) => s.key)).toContain('DELETE /api/v1/waitlist/9');
  expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '已放弃候补' }));
  // the list is read again after the change
  expect(sent.filter((s) => s.key === 'GET /api/v1/me/waitlist')).toHaveLength(2);
});

it('我的 shows nothing of 候补 to a fan with no entries', async () => {
  serveApi({ 'GET /api/v1/me/waitlist': ok({ items: [] }) });
  render(<MyWaitlist />);
  await tick();
  expect(screen.queryByTestId('my-waitlist')).toBeNull();
});

it('joining asks consent to the offer notice first (in the tap, before the join is sent)', async () => {
  taro.setStorageSync(
    'showtix.noticeTemplates',
    JSON.stringify({ waiting_list_offer: 'TPL_OFFER', session_changed: 'TPL_CHANGED', ticketed: 'TPL_T' }),
  );
  const stub = taro as unknown as Record<string, jest.Mock>;
  stub.requestSubscribeMessage = jest.fn(async (o: { tmplIds: string[] }) =>
    Object.fromEntries(o.tmplIds.map((id) => [id, 'accept'])),
  );
  const sent = serveApi({
    'POST /api/v1/sessions/7/waitlist': { statusCode: 201, data: entry('6', 'waiting') },
    'POST /api/v1/me/subscriptions': ok({ items: [] }),
  });
  render(<WaitlistJoin s={SOLD_OUT} />);
  fireEvent.click(screen.getByTestId(`waitlist-join-${TIERS[0]!.id}`));
  await tick();
  expect(stub.requestSubscribeMessage).toHaveBeenCalledWith(
    expect.objectContaining({ tmplIds: ['TPL_OFFER', 'TPL_CHANGED'] }),
  );
  const keys = sent.map((s) => s.key);
  expect(keys).toContain('POST /api/v1/sessions/7/waitlist');
  expect(keys).toContain('POST /api/v1/me/subscriptions');
});
