import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { AdminTransferView } from '@showtix/shared-types';
import { TransferSettingsCard } from '../../src/pages/shows/TransferSettingsCard';
import { TransferList } from '../../src/pages/orders/TransferList';
import { reply, renderInApp } from './harness';

describe('转赠 (ticket transfers) on the admin page', () => {
  it('loads a show’s rules and saves them as edited', { timeout: 30_000 }, async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((_url, init) =>
        reply(
          init?.method === 'PUT'
            ? JSON.parse(String(init.body))
            : { enabled: false, cutoffMinutes: 120, onceOnly: true },
        ),
      );
    renderInApp(<TransferSettingsCard showId="9" />);
    const cutoff = (await screen.findByTestId(
      'transfer-cutoff',
      {},
      { timeout: 10_000 },
    )) as HTMLInputElement;
    await waitFor(() => expect(cutoff.value).toBe('120'), { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('transfer-enabled'));
    fireEvent.change(cutoff, { target: { value: '240' } });
    fireEvent.click(screen.getByTestId('transfer-save'));
    await waitFor(() => expect(fetch.mock.calls.some(([, i]) => i?.method === 'PUT')).toBe(true), {
      timeout: 10_000,
    });
    const [url, init] = fetch.mock.calls.find(([, i]) => i?.method === 'PUT')!;
    expect(String(url)).toContain('/api/v1/admin/shows/9/transfer-settings');
    expect(JSON.parse(String(init!.body))).toEqual({ enabled: true, cutoffMinutes: 240, onceOnly: true });
  });

  it(
    'lists an order’s transfers with both tickets and the masked attendees',
    { timeout: 30_000 },
    async () => {
      const t: AdminTransferView = {
        id: '1',
        state: 'accepted',
        fromTicketNo: 'T2222222222222222222',
        toTicketNo: 'T3333333333333333333',
        giverUserId: '7',
        receiverUserId: '8',
        createdAt: '2026-12-01T08:00:00.000Z',
        expiresAt: '2026-12-31T10:00:00.000Z',
        closedAt: '2026-12-01T09:00:00.000Z',
        fromAttendee: { name: '张*', idNumber: '110***********002X' },
        toAttendee: { name: '王*', idNumber: '110***********3030' },
      };
      vi.spyOn(globalThis, 'fetch').mockImplementation(() => reply({ items: [t] }));
      renderInApp(<TransferList orderNo="261201000000000001" />);
      expect(await screen.findByText('已接收', {}, { timeout: 10_000 })).toBeTruthy();
      expect(screen.getByText('T3333333333333333333')).toBeTruthy();
      expect(screen.getByText(/王\* 110\*+3030/)).toBeTruthy();
    },
  );
});
