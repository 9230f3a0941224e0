import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { WaitlistPanel } from '../../src/pages/shows/WaitlistPanel';
import { reply } from './harness';

describe('候补 on the session page', () => {
  it('shows the waiting list per tier: fans waiting, units, offers open, paid, expired', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(() =>
      reply({
        items: [
          { tierId: '1', tierName: 'VIP', waiting: 3, waitingUnits: 5, offered: 1, fulfilled: 2, lapsed: 1 },
          { tierId: '2', tierName: '看台', waiting: 0, waitingUnits: 0, offered: 0, fulfilled: 0, lapsed: 0 },
        ],
      }),
    );
    render(<WaitlistPanel sessionId="42" />);
    const panel = await screen.findByTestId('waitlist-panel', {}, { timeout: 10_000 });
    expect(String(fetch.mock.calls[0]![0])).toContain('/api/v1/admin/sessions/42/waitlist');
    const rows = within(panel)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows[0]).toBe('票档候补人数候补张数待支付已购票已过期');
    expect(rows[1]).toBe('VIP35121');
    expect(rows[2]).toBe('看台00000');
  });

  it('shows nothing for a session that never had a line', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(() =>
      reply({
        items: [
          {
            tierId: '1',
            tierName: 'VIP',
            waiting: 0,
            waitingUnits: 0,
            offered: 0,
            fulfilled: 0,
            lapsed: 0,
          },
        ],
      }),
    );
    const { container } = render(<WaitlistPanel sessionId="43" />);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(container.textContent).toBe('');
  });
});
