import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { OrderDrawer } from '../../src/pages/orders/OrderDrawer';
import { orderTicket, ticketedOrder } from './fixtures';
import { reply, renderInApp } from './harness';

const order = ticketedOrder({
  orderNo: '261201000000000001',
  amountFen: 272000,
  quantity: 4,
  tickets: [
    orderTicket('T2222222222222222222', 'A区 1排 1座', '已作废'),
    orderTicket('T3333333333333333333', 'A区 1排 2座'),
    orderTicket('T4444444444444444444', 'A区 1排 3座'),
    orderTicket('T5555555555555555555', 'A区 1排 4座'),
  ],
});

describe('OrderDrawer: refunding chosen tickets', () => {
  it('offers the valid tickets one by one and sends only the chosen ones', { timeout: 30_000 }, async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply(order));
    renderInApp(<OrderDrawer orderNo={order.orderNo} onClose={() => {}} onChanged={() => {}} />);
    fireEvent.click(await screen.findByTestId('refund-btn'));
    // The voided ticket is not offered; the three valid ones are, all chosen at first.
    const boxes = await screen.findAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    expect(await screen.findByText(/票面价 ¥2,040/)).toBeTruthy(); // rendered once all are chosen
    fireEvent.click(boxes[0]!); // leave 2座 out
    fireEvent.click(boxes[2]!); // and 4座
    expect(await screen.findByText(/票面价 ¥680（/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('refund-reason'), { target: { value: '买家一人去不了' } });
    fireEvent.click(screen.getByTestId('confirm-refund'));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const [url, init] = fetch.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(String(url)).toContain(`/api/v1/admin/orders/${order.orderNo}/refund`);
    expect(JSON.parse(String(init!.body))).toEqual({
      reason: '买家一人去不了',
      ticketIds: ['T4444444444444444444'],
    });
  });
});
