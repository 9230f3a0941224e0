import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CompView, ReservationsView, VenueSeat } from '@showtix/shared-types';
import { CompPanel } from '../../src/pages/shows/CompPanel';
import { reply, renderInApp } from './harness';

const seats: VenueSeat[] = [
  { id: '11', section: 'A', row: '1', number: '1', x: 0, y: 0 },
  { id: '12', section: 'A', row: '1', number: '2', x: 10, y: 0 },
];

const view: ReservationsView = {
  sessionId: '42',
  capacity: 100,
  reserved: 10,
  issued: 1,
  publicPercent: 90,
  reservableMax: 15,
  seats: [
    { seatId: '11', label: 'A区 1排1座', issued: true },
    { seatId: '12', label: 'A区 1排2座', issued: false },
  ],
  zones: [{ zoneId: '5', name: '内场', capacity: 98, reserved: 8, issued: 0 }],
};

const comp: CompView = {
  orderId: '900',
  orderNo: '261201900',
  sessionId: '42',
  state: 'issued',
  nameMasked: '张*',
  phoneMasked: '138****8000',
  idMasked: null,
  note: '赞助商',
  claimCode: 'ABCDEFGH23',
  tickets: [{ ticketNo: 'T2345678923456789234', label: 'A区 1排1座', status: 'valid' }],
  issuedBy: 'ops1',
  issuedAt: '2026-12-01T08:00:00.000Z',
  claimedAt: null,
  voidedBy: null,
  voidedAt: null,
  voidReason: null,
};

function mockServer(onPost: (url: string, body: unknown) => Promise<Response>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = String(input);
    if (init?.method === 'GET' || !init?.method) {
      if (url.endsWith('/reservations')) return reply(view);
      if (url.endsWith('/comps')) return reply({ items: [comp] });
    }
    return onPost(url, init?.body ? JSON.parse(String(init.body)) : undefined);
  });
}

const ui = () => renderInApp(<CompPanel sessionId="42" realName={false} seats={seats} closed={false} />);

describe('预留与赠票', () => {
  it(
    'shows the public share, the reserved seats and the comps with their claim codes',
    { timeout: 60_000 },
    async () => {
      mockServer(() => reply({}));
      ui();
      const share = await screen.findByTestId('public-share', {}, { timeout: 10_000 });
      expect(share.textContent).toContain('公开销售占比 90%');
      expect(share.textContent).toContain('最多可预留 15');
      expect(screen.getByText(/A区 1排1座 · 已赠/)).toBeTruthy();
      expect(screen.getByText('ABCDEFGH23')).toBeTruthy();
      expect(screen.getByText('待领取')).toBeTruthy();
    },
  );

  it(
    'shows the server refusing a zone reservation above 15% (PUBLIC_SHARE_TOO_LOW)',
    { timeout: 60_000 },
    async () => {
      const fetch = mockServer(() =>
        reply(
          { error: { code: 'PUBLIC_SHARE_TOO_LOW', message: '预留后公开销售的票将低于85%，不能预留' } },
          409,
        ),
      );
      ui();
      const input = await screen.findByLabelText('内场预留数', {}, { timeout: 10_000 });
      fireEvent.change(input, { target: { value: '20' } });
      fireEvent.click(screen.getByTestId('zone-save-5'));
      expect(
        await screen.findByText('预留后公开销售的票将低于85%，不能预留', {}, { timeout: 10_000 }),
      ).toBeTruthy();
      const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')!;
      expect(put[0]).toBe('/api/v1/admin/sessions/42/reservations/zones/5');
      expect(JSON.parse(String(put[1]!.body))).toEqual({ reserved: 20 });
    },
  );

  it(
    'issues a comp from an unissued reserved seat to a named person, with an idempotency key',
    { timeout: 120_000 },
    async () => {
      const posted: unknown[] = [];
      mockServer((url, body) => {
        posted.push([url, body]);
        return reply(comp, 201);
      });
      ui();
      fireEvent.click(await screen.findByTestId('issue-comp', {}, { timeout: 10_000 }));
      const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
      fireEvent.click(within(dialog).getByRole('button', { name: '确认赠票' }));
      expect(await within(dialog).findByText('请填写姓名', {}, { timeout: 10_000 })).toBeTruthy();
      expect(posted).toHaveLength(0);
      fireEvent.change(within(dialog).getByLabelText('姓名'), { target: { value: '张三' } });
      fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '13800138000' } });
      // Only the reserved seat without a comp is offered.
      fireEvent.mouseDown(within(dialog).getAllByRole('combobox')[0]!);
      const options = await screen.findAllByRole('option', {}, { timeout: 10_000 });
      expect(options).toHaveLength(1);
      expect(screen.queryByTitle('A区 1排1座')).toBeNull();
      fireEvent.click(await screen.findByTitle('A区 1排2座', {}, { timeout: 10_000 }));
      fireEvent.click(within(dialog).getByRole('button', { name: '确认赠票' }));
      await waitFor(() => expect(posted).toHaveLength(1), { timeout: 10_000 });
      const [url, body] = posted[0] as [string, Record<string, unknown>];
      expect(url).toBe('/api/v1/admin/sessions/42/comps');
      expect(body).toMatchObject({ name: '张三', phone: '13800138000', seatIds: ['12'] });
      expect(String(body.idempotencyKey)).toMatch(/^comp-/);
    },
  );
});
