import { describe, expect, it, vi, beforeEach } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { AdminOrderDetail } from '@showtix/shared-types';
import { OrderDrawer } from '../../src/pages/orders/OrderDrawer';

/** 改签 (issue 16) in the order drawer: the exchanges of the order, the exchanged ticket marked. */
const order: AdminOrderDetail = {
  orderNo: '261201000000000002',
  channel: 'miniprogram',
  status: 'ticketed',
  amountFen: 68000,
  quantity: 1,
  createdAt: '2026-12-01T08:00:00.000Z',
  paidAt: '2026-12-01T08:01:00.000Z',
  buyer: { userId: '7', nickname: null, openidMasked: 'oA***9' },
  showTitle: '测试演出',
  sessionId: '3',
  sessionStartsAt: '2026-12-31T12:00:00.000Z',
  contactPhone: null,
  attendees: [],
  expireAt: '2026-12-01T08:15:00.000Z',
  cancelledAt: null,
  cancelReason: null,
  items: [],
  payments: [],
  tickets: [
    {
      ticketNo: 'T2222222222222222222',
      status: '已改签',
      seatLabel: 'A区 1排 1座',
      priceFen: 68000,
      createdAt: '2026-12-01T08:00:00.000Z',
      bindings: [],
    },
  ],
  refunds: [],
  exchanges: [
    {
      exchangeId: '1',
      status: 'done',
      originalOrderNo: '261201000000000002',
      orderNo: '261201000000000003',
      fromSessionId: '3',
      toSessionId: '4',
      oldFen: 68000,
      newFen: 50000,
      diffFen: -18000,
      oldTicketIds: ['T2222222222222222222'],
      newTicketIds: ['T3333333333333333333'],
      refund: { status: 'succeeded', amountFen: 18000 },
      createdAt: '2026-12-01T09:00:00.000Z',
    },
  ],
  audit: [],
};

const reply = (body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
  );

describe('OrderDrawer: exchanges', () => {
  beforeEach(() => vi.restoreAllMocks());

  it(
    'lists the exchange with its tickets, the difference refunded and its status',
    { timeout: 30_000 },
    async () => {
      vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply(order));
      render(
        <AntApp>
          <OrderDrawer orderNo={order.orderNo} onClose={() => {}} onChanged={() => {}} />
        </AntApp>,
      );
      const table = await screen.findByTestId('order-exchanges', {}, { timeout: 10_000 });
      const rows = within(table).getAllByRole('row');
      expect(rows).toHaveLength(2); // the header and the exchange
      expect(rows[1]!.textContent).toContain('261201000000000003');
      expect(rows[1]!.textContent).toContain('T3333333333333333333');
      expect(rows[1]!.textContent).toContain('退 ¥180');
      expect(rows[1]!.textContent).toContain('已改签');
      expect(screen.getAllByText('已改签').length).toBeGreaterThanOrEqual(2); // the ticket too
    },
  );
});
