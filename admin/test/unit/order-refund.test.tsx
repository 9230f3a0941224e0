import { describe, expect, it, vi, beforeEach } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { AdminOrderDetail } from '@showtix/shared-types';
import { OrderDrawer } from '../../src/pages/orders/OrderDrawer';

const ticket = (no: string, seatLabel: string, status = '有效') => ({
  ticketNo: no,
  status,
  seatLabel,
  priceFen: 68000,
  createdAt: '2026-12-01T08:00:00.000Z',
  bindings: [],
});

const order: AdminOrderDetail = {
  orderNo: '261201000000000001',
  status: 'ticketed',
  amountFen: 272000,
  quantity: 4,
  createdAt: '2026-12-01T08:00:00.000Z',
  paidAt: '2026-12-01T08:01:00.000Z',
  buyer: { userId: '7', nickname: null, openidMasked: 'oA***9' },
  showTitle: '测试演出',
  sessionId: '3',
  sessionStartsAt: '2026-12-31T12:00:00.000Z',
  channel: 'miniprogram',
  contactPhone: null,
  attendees: [],
  expireAt: '2026-12-01T08:15:00.000Z',
  cancelledAt: null,
  cancelReason: null,
  items: [],
  payments: [],
  tickets: [
    ticket('T2222222222222222222', 'A区 1排 1座', '已作废'),
    ticket('T3333333333333333333', 'A区 1排 2座'),
    ticket('T4444444444444444444', 'A区 1排 3座'),
    ticket('T5555555555555555555', 'A区 1排 4座'),
  ],
  refunds: [],
  audit: [],
};

const reply = (body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
  );

describe('OrderDrawer: refunding chosen tickets', () => {
  beforeEach(() => vi.restoreAllMocks());

  it('offers the valid tickets one by one and sends only the chosen ones', { timeout: 30_000 }, async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply(order));
    render(
      <AntApp>
        <OrderDrawer orderNo={order.orderNo} onClose={() => {}} onChanged={() => {}} />
      </AntApp>,
    );
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
