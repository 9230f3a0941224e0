import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { DegradeState } from '@showtix/shared-types';
import { DegradePage } from '../../src/pages/degrade/DegradePage';
import { reply, renderInApp } from './harness';

const normal: DegradeState = {
  seatPollMs: null,
  pauseNonEssential: false,
  forcedQueueSessionIds: [],
  items: [],
};
const slowed: DegradeState = {
  seatPollMs: 20_000,
  pauseNonEssential: false,
  forcedQueueSessionIds: ['42'],
  items: [
    {
      name: 'seat_poll',
      sessionId: null,
      value: 20_000,
      reason: '开票高峰',
      updatedBy: 'ops1',
      updatedAt: '2026-12-01T08:00:00.000Z',
    },
    {
      name: 'force_queue',
      sessionId: '42',
      value: 1,
      reason: '开票高峰',
      updatedBy: 'ops1',
      updatedAt: '2026-12-01T08:00:00.000Z',
    },
  ],
};

describe('熔断降级 page', () => {
  it(
    'shows the switches that are on and flips seat states with the reason given',
    { timeout: 60_000 },
    async () => {
      let current = normal;
      const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation((_url, init) => {
        if (init?.method === 'PUT') current = slowed;
        return reply(current);
      });
      renderInApp(<DegradePage />);
      expect(await screen.findByText('当前：默认每 4 秒')).toBeTruthy();
      expect(screen.getByText('无，系统按正常模式运行')).toBeTruthy();
      fireEvent.change(screen.getByLabelText('原因'), { target: { value: '开票高峰' } });
      fireEvent.change(screen.getByLabelText('刷新间隔（秒）'), { target: { value: '20' } });
      fireEvent.click(screen.getByRole('button', { name: /放慢刷新/ }));
      await waitFor(() =>
        expect(screen.getByTestId('seat-poll-now').textContent).toBe('当前：已放慢为每 20 秒'),
      );
      const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')!;
      expect(put[0]).toBe('/api/v1/admin/degrade');
      expect(JSON.parse(String(put[1]!.body))).toEqual({
        name: 'seat_poll',
        pollMs: 20_000,
        reason: '开票高峰',
      });
      // The table lists what is on, with who turned it on; the forced session shows as a tag.
      expect(screen.getByText('每 20 秒刷新一次')).toBeTruthy();
      expect(screen.getAllByText('ops1')).toHaveLength(2);
      expect(screen.getAllByText('场次 42').length).toBeGreaterThan(0);
    },
  );

  it('pauses the non-essential endpoints with the switch', { timeout: 60_000 }, async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply(normal));
    renderInApp(<DegradePage />);
    const sw = await screen.findByRole('switch', { name: '暂停非必要功能' });
    fireEvent.click(sw);
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).toEqual({ name: 'pause_nonessential', on: true });
  });
});
