import { act, fireEvent, screen } from '@testing-library/react';
import taro from './stubs/taro';
import { ok } from './fake-api';
import { SESSION, orderItem, ticketedOrder, SHOW_3 } from './fixtures';
import { loggedInFan } from './fan';
import { openOrderPage } from './order-page';

/** Per-ticket 退票 on the order detail page (issue 16): choose tickets, see the fee and the money back. */
const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const SHOW = {
  ...SHOW_3,
  // 10% until 48 hours before the start (the session starts in about six weeks)
  refundRules: [{ hoursBeforeStart: 48, feePercent: 10 }],
  sessions: [SESSION],
};
const item = (n: number, extra: Record<string, unknown> = {}) => orderItem(n, 68_001, extra);
const ORDER = ticketedOrder(NOW, 'N200', [item(2), item(3), item(4), item(5)]);

loggedInFan(NOW);

it('refunds the chosen tickets only, with the fee and the money back shown before the fan confirms', async () => {
  const after = {
    ...ORDER,
    items: [item(2), item(3, { refundStatus: 'requested' }), item(4), item(5)],
    refund: {
      status: 'requested',
      amountFen: 61_201,
      feeFen: 6_800,
      requestedAt: new Date(NOW).toISOString(),
    },
  };
  const sent = await openOrderPage(ORDER, {
    show: SHOW,
    routes: { 'POST /api/v1/orders/N200/refund': ok(after) },
  });
  expect(screen.getByTestId('refund-order')).toBeTruthy(); // the whole order in one tap, or chosen tickets
  expect(screen.getByTestId('refund-pick-open').textContent).toBe('部分退票');
  fireEvent.click(screen.getByTestId('refund-pick-open'));
  const rows = screen.getAllByTestId('refund-pick');
  expect(rows).toHaveLength(4);
  expect(rows[0]!.textContent).toContain('手续费 ¥68，退回 ¥612.01');
  expect(screen.getByTestId('refund-tickets').textContent).toBe('请选择门票');
  fireEvent.click(rows[1]!);
  expect(rows[1]!.getAttribute('aria-checked')).toBe('true');
  expect(screen.getByTestId('refund-tickets').textContent).toBe('退 1 张，预计退回 ¥612.01');
  await act(async () => {
    fireEvent.click(screen.getByTestId('refund-tickets'));
    await jest.advanceTimersByTimeAsync(0);
  });
  expect(taro.showModal).toHaveBeenCalledWith(
    expect.objectContaining({
      content: '所选 1 张按退票规则收取手续费 ¥68，预计退回 ¥612.01。其余门票仍可入场。',
    }),
  );
  const post = sent.find((r) => r.key === 'POST /api/v1/orders/N200/refund')!;
  expect(post.data).toEqual({ ticketIds: ['T3333333333333333333'] });
  // The order after: one ticket being refunded, the others still offered and still valid.
  expect(screen.getByTestId('order-status').textContent).toContain('所选门票退票处理中，其余电子票仍可入场');
  expect(screen.getAllByTestId('item-refund').map((e) => e.textContent)).toEqual(['退票中']);
  fireEvent.click(screen.getByTestId('refund-pick-open'));
  expect(screen.getAllByTestId('refund-pick')).toHaveLength(3);
});

it('the fee of several tickets is the fee on their total, rounded down as the server charges it', async () => {
  await openOrderPage(ORDER, { show: SHOW });
  fireEvent.click(screen.getByTestId('refund-pick-open'));
  const rows = screen.getAllByTestId('refund-pick');
  fireEvent.click(rows[0]!);
  fireEvent.click(rows[2]!);
  // 136,002 fen: fee floor(13,600.2) = 13,600, back 122,402
  expect(screen.getByTestId('refund-tickets').textContent).toBe('退 2 张，预计退回 ¥1,224.02');
  fireEvent.click(rows[0]!); // unchosen again
  expect(screen.getByTestId('refund-tickets').textContent).toBe('退 1 张，预计退回 ¥612.01');
});

it('an order whose only ticket was exchanged (改签) offers no refund: the ticket is marked, nothing to refund here', async () => {
  const order = { ...ORDER, orderNo: 'N201', amountFen: 68_001, items: [item(2, { exchanged: true })] };
  await openOrderPage(order, { show: SHOW });
  expect(screen.getByTestId('item-exchanged').textContent).toBe('已改签');
  expect(screen.queryByTestId('refund-order')).toBeNull();
  expect(screen.queryByTestId('refund-pick-open')).toBeNull();
  expect(screen.queryByText(/当前退票收取|可免费退票|不支持退票/)).toBeNull();
});

it('with a ticket handed on (转赠 or 改签), the others are refunded ticket by ticket, not as the whole order', async () => {
  const order = {
    ...ORDER,
    orderNo: 'N202',
    items: [item(2, { transferred: true }), item(3, { exchanged: true }), item(4), item(5)],
  };
  await openOrderPage(order, { show: SHOW });
  expect(screen.queryByTestId('refund-order')).toBeNull();
  expect(screen.getByTestId('refund-pick-open').textContent).toBe('退票');
  fireEvent.click(screen.getByTestId('refund-pick-open'));
  expect(screen.getAllByTestId('refund-pick').map((r) => r.textContent)).toEqual([
    expect.stringContaining('A区 1排4座'),
    expect.stringContaining('A区 1排5座'),
  ]);
});

it('an exchange order (改签所得) offers no refund and says why: it holds only the price difference', async () => {
  const order = { ...ORDER, orderNo: 'N202', exchangedFrom: 'N100' };
  await openOrderPage(order, { show: SHOW });
  expect(screen.getByTestId('order-exchanged-from').textContent).toBe(
    '改签自订单 N100，改签所得门票不支持退票',
  );
  expect(screen.queryByTestId('refund-order')).toBeNull();
  expect(screen.queryByTestId('refund-pick-open')).toBeNull();
  expect(screen.queryByText(/当前退票收取|可免费退票/)).toBeNull();
});
