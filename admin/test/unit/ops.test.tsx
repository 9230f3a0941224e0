import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { OpsOverview } from '@showtix/shared-types';
import { OpsPage } from '../../src/pages/ops/OpsPage';
import { reply, renderInApp } from './harness';

const overview: OpsOverview = {
  deadLetters: {
    queues: { tickets: 0, refunds: 2 },
    parked: [
      {
        id: '7',
        queue: 'notices',
        messageId: 'outbox-9',
        payload: '{"orderId":"1"}',
        error: 'boom',
        redrives: 3,
        parkedAt: '2026-12-01T08:00:00.000Z',
      },
    ],
  },
  stuckPayments: [{ orderNo: '261201000000000001', amountFen: 68000, paidAt: '2026-12-01T08:00:00.000Z' }],
  stuckRefunds: [],
  refundCases: [
    {
      refundId: '5',
      orderNo: '261201000000000002',
      outRefundNo: 'RF261201000000000002P1',
      amountFen: 12345,
      reason: 'abnormal',
      refundStatus: 'abnormal',
      openedAt: '2026-12-01T08:00:00.000Z',
    },
  ],
  foreignCurrency: [
    {
      paymentId: '9',
      orderNo: '261201000000000003',
      transactionId: '4200000000000000009',
      amountFen: 5000,
      currency: 'USD',
      refundedFen: 0,
      refundId: null,
      refundStatus: null,
      receivedAt: '2026-12-01T08:00:00.000Z',
    },
  ],
  noticeProblems: [
    {
      kind: 'ticketed',
      status: 'refused',
      errcode: 43101,
      errmsg: 'user refuse to accept the msg',
      count: 3,
      lastAt: '2026-12-01T08:00:00.000Z',
    },
    {
      kind: 'reminder',
      status: 'no_consent',
      errcode: null,
      errmsg: null,
      count: 12,
      lastAt: '2026-12-01T08:00:00.000Z',
    },
  ],
};

describe('运维处理 page', () => {
  it(
    'shows what recovery left for an operator: queue depths, parked messages, paid orders without tickets, refund cases',
    { timeout: 30_000 },
    async () => {
      const fetch = vi
        .spyOn(globalThis, 'fetch')
        .mockImplementation((_url, init) =>
          reply(
            init?.method === 'POST'
              ? { refundId: '5', state: 'resolved', resolution: 'paid_offline' }
              : overview,
          ),
        );
      renderInApp(<OpsPage />);
      expect(await screen.findByText('退款：2')).toBeTruthy();
      expect(screen.getByText('261201000000000001')).toBeTruthy();
      expect(screen.getByText('¥680')).toBeTruthy();
      expect(screen.getByText('退款异常（银行卡）')).toBeTruthy();
      expect(screen.getByRole('button', { name: /处\s*理/ })).toBeTruthy();
      // Money taken in another currency, its refund not made yet, with the repair.
      expect(screen.getByText('261201000000000003')).toBeTruthy();
      expect(screen.getByText('50.00 USD')).toBeTruthy();
      expect(screen.getByText('未发起')).toBeTruthy();
      expect(screen.getByRole('button', { name: /退\s*款/ })).toBeTruthy();
      // Notices that did not reach the fan, by kind and WeChat errcode.
      expect(screen.getByText('43101 用户未订阅或订阅已用完')).toBeTruthy();
      expect(screen.getByText('微信拒收')).toBeTruthy();
      expect(screen.getByText('开演提醒')).toBeTruthy();
      expect(screen.getByText('12')).toBeTruthy();
      expect(fetch).toHaveBeenCalledTimes(1);
    },
  );
});
