import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminSessionSummary, SessionChangeView } from '@showtix/shared-types';
import { SessionChangeActions, SessionChangeProgress } from '../../src/pages/shows/SessionChangePanel';
import { reply, renderInApp } from './harness';

const session: AdminSessionSummary = {
  id: '42',
  showId: '1',
  startsAt: '2027-01-10T11:30:00.000Z',
  saleStartsAt: '2026-12-01T04:00:00.000Z',
  status: 'on_sale',
  holdMinutes: 15,
  purchaseLimit: 4,
  realName: false,
  queueEnabled: false,
  queueRatePerMin: null,
  rebindFreezeMinutes: null,
  capacity: 100,
  tiers: [],
};

const running: SessionChangeView = {
  id: '7',
  sessionId: '42',
  kind: 'cancel',
  state: 'running',
  reason: '艺人身体原因',
  oldStartsAt: session.startsAt,
  newStartsAt: null,
  refundUntil: null,
  createdBy: 'ops1',
  createdAt: '2026-12-01T08:00:00.000Z',
  finishedAt: null,
  orders: { total: 4, waiting: 1, inProgress: 1, refunded: 2, failed: 0 },
  pendingLeft: 0,
  fenToRefund: 272_000,
  fenRefunded: 136_000,
  problems: [{ orderNo: '202612010001', amountFen: 68_000, state: 'retrying', error: 'NOT_ENOUGH 余额不足' }],
};

describe('取消场次 / 延期场次', () => {
  it('asks for a reason and confirmation before cancelling, then posts it', { timeout: 60_000 }, async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply(running));
    const done = vi.fn();
    renderInApp(<SessionChangeActions s={session} done={done} />);
    fireEvent.click(screen.getByTestId('cancel-session'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/所有门票立即失效/)).toBeTruthy();
    // No reason: refused in the form, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: '确认取消场次' }));
    expect(await within(dialog).findByText('请填写取消原因')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('取消原因（将告知观众）'), {
      target: { value: '艺人身体原因' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认取消场次' }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/admin/sessions/42/cancel');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init!.body))).toEqual({ reason: '艺人身体原因' });
  });

  it('offers nothing on a cancelled or ended session', () => {
    renderInApp(
      <>
        <SessionChangeActions s={{ ...session, status: 'cancelled' }} done={() => undefined} />
        <SessionChangeActions s={{ ...session, status: 'ended' }} done={() => undefined} />
      </>,
    );
    expect(screen.queryByTestId('cancel-session')).toBeNull();
    expect(screen.queryByTestId('postpone-session')).toBeNull();
  });

  it(
    'shows the refund run counted to the fen, with the refunds WeChat refused',
    { timeout: 60_000 },
    async () => {
      vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply({ items: [running] }));
      renderInApp(<SessionChangeProgress sessionId="42" />);
      const card = await screen.findByTestId('session-change-cancel');
      expect(within(card).getByText('场次已取消 · 全额退款处理中')).toBeTruthy();
      expect(within(card).getByTestId('fen-refunded').textContent).toBe('¥1,360');
      expect(within(card).getByText('¥2,720')).toBeTruthy();
      expect(within(card).getByText('202612010001')).toBeTruthy();
      expect(within(card).getByText('微信拒绝，自动重试中')).toBeTruthy();
      expect(within(card).getByText('NOT_ENOUGH 余额不足')).toBeTruthy();
    },
  );
});
