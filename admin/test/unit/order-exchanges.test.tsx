import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { OrderDrawer } from '../../src/pages/orders/OrderDrawer';
import { orderTicket, ticketedOrder } from './fixtures';
import { reply, renderInApp } from './harness';

/** 改签 (issue 16) in the order drawer: the exchanges of the order, the exchanged ticket marked. */
const order = ticketedOrder({
  orderNo: '261201000000000002',
  amountFen: 68000,
  quantity: 1,
  tickets: [orderTicket('T2222222222222222222', 'A区 1排 1座', '已改签')],
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
});

describe('OrderDrawer: exchanges', () => {
  it(
    'lists the exchange with its tickets, the difference refunded and its status',
    { timeout: 30_000 },
    async () => {
      vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply(order));
      renderInApp(<OrderDrawer orderNo={order.orderNo} onClose={() => {}} onChanged={() => {}} />);
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
