import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { AdminShowDetail } from '@showtix/shared-types';
import { smallVenue } from './fixtures';
import { SessionPage } from '../../src/pages/shows/SessionPage';
import { reply, renderInApp } from './harness';

const show = {
  id: '1',
  title: '城市之光',
  category: 'concert',
  venueId: '5',
  venueName: 'v',
  posterUrl: null,
  sessionCount: 0,
  firstStartsAt: null,
  statuses: [],
  createdAt: '2026-12-01T00:00:00.000Z',
  description: '',
  refundRules: [],
  showPurchaseLimit: null,
  sessions: [],
} satisfies AdminShowDetail;
const venue = { ...smallVenue('A', 2), id: '5' };

// Walk-through #4: Enter in an admin date field created the session at once, a default ¥380 on every seat.
describe('new session form', () => {
  it('does not create the session when Enter is pressed in a date field', { timeout: 120_000 }, async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation((url, init) => {
      if (init?.method === 'POST') return reply({ id: '77' });
      return reply(String(url).includes('/venues/') ? venue : show);
    });
    renderInApp(
      <MemoryRouter initialEntries={['/shows/1/sessions/new']}>
        <Routes>
          <Route path="shows/:showId/sessions/new" element={<SessionPage />} />
          <Route path="sessions/:sessionId" element={<p>created</p>} />
        </Routes>
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    const date = await screen.findByLabelText('演出开始时间', {}, { timeout: 15_000 });
    await user.click(date);
    await user.keyboard('{Enter}');
    await new Promise((r) => setTimeout(r, 500));
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
    expect(screen.queryByText('created')).toBeNull();
    // The button still creates it.
    await user.click(screen.getByTestId('save-session'));
    expect(await screen.findByText('created', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
