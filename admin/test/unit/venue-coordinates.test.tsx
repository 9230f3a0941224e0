import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { VenueDetailPage } from '../../src/pages/venues/VenueDetailPage';
import { VenueBuilderPage } from '../../src/pages/venues/VenueBuilderPage';
import { smallVenue } from './fixtures';
import { reply } from './harness';

// A venue's GCJ-02 coordinates (issue 17 #13), entered by the organiser for the fan's 导航.
type Call = { method: string; url: string; body: Record<string, unknown> | undefined };

function serve(venue: object): Call[] {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((url, init) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    calls.push({ method: init?.method ?? 'GET', url: String(url), body });
    if (String(url).endsWith('/layout/generate'))
      return reply({
        seats: [{ section: 'A', row: '1', number: '1', x: 0, y: 0 }],
        duplicates: [],
        overlaps: 0,
      });
    if (init?.method === 'POST') return reply({ ...venue, id: '9' }, 201);
    return reply({ ...venue, ...(body ?? {}) });
  });
  return calls;
}

const type = (testid: string, value: string) => {
  const input = screen.getByTestId(testid) as HTMLInputElement;
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

function renderDetail() {
  return render(
    <AntApp>
      <MemoryRouter initialEntries={['/venues/1']}>
        <Routes>
          <Route path="/venues/:venueId" element={<VenueDetailPage />} />
        </Routes>
      </MemoryRouter>
    </AntApp>,
  );
}

async function openEdit() {
  renderDetail();
  fireEvent.click(await screen.findByText('编辑信息'));
  await screen.findByTestId('venue-latitude');
}

const patches = (calls: Call[]) => calls.filter((c) => c.method === 'PATCH');

/** Types both coordinates in the open edit form and saves it. */
function saveCoordinates(latitude: string, longitude: string) {
  type('venue-latitude', latitude);
  type('venue-longitude', longitude);
  fireEvent.click(screen.getByText('保 存'));
}

describe('venue coordinates in the admin', () => {
  it('the detail page shows them, and 编辑信息 saves them as numbers', async () => {
    const calls = serve({ ...smallVenue('A', 2), latitude: null, longitude: null });
    await openEdit();
    expect(screen.getByTestId('venue-coordinates').textContent).toBe('未填写（演出页不显示导航）');
    saveCoordinates('31.190617', '121.495853');
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    expect(patches(calls)[0]!.body).toMatchObject({ latitude: 31.190617, longitude: 121.495853 });
  });

  it('emptied fields clear them (null), not leave them as they were', async () => {
    const calls = serve({ ...smallVenue('A', 2), latitude: 30.5, longitude: 114.3 });
    await openEdit();
    expect(screen.getByTestId('venue-coordinates').textContent).toBe('30.5, 114.3');
    saveCoordinates('', '');
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    expect(patches(calls)[0]!.body).toMatchObject({ latitude: null, longitude: null });
  });

  it('refuses a latitude out of range, or one without its longitude, before anything is sent', async () => {
    const calls = serve({ ...smallVenue('A', 2), latitude: null, longitude: null });
    await openEdit();
    saveCoordinates('91', '121');
    expect(await screen.findByText('纬度应在 -90 到 90 之间')).toBeTruthy();
    saveCoordinates('31', '');
    expect((await screen.findAllByText('经纬度须同时填写或同时清空')).length).toBeGreaterThan(0);
    expect(patches(calls)).toEqual([]);
  });

  it('a new venue is created with the coordinates entered', async () => {
    const calls = serve({ ...smallVenue('A', 1), latitude: 39.9, longitude: 116.4 });
    render(
      <AntApp>
        <MemoryRouter initialEntries={['/venues/new']}>
          <VenueBuilderPage />
        </MemoryRouter>
      </AntApp>,
    );
    await waitFor(() => expect(screen.getAllByTestId('seat-count')[0]!.textContent).toContain('1'));
    fireEvent.change(screen.getByTestId('venue-name'), { target: { value: '工人体育馆' } });
    type('venue-latitude', '39.9');
    type('venue-longitude', '116.4');
    fireEvent.click(screen.getByTestId('save-venue'));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/venues'))).toBe(true),
    );
    const post = calls.find((c) => c.method === 'POST' && c.url.endsWith('/venues'))!;
    expect(post.body).toMatchObject({ name: '工人体育馆', latitude: 39.9, longitude: 116.4 });
  });
});
