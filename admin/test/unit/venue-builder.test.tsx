import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { VenueBuilderPage } from '../../src/pages/venues/VenueBuilderPage';
import { reply, renderInApp } from './harness';

/** The generator's answer; a decimal anywhere gets the API's schema error, as the real server does. */
function fakeGenerate(url: RequestInfo | URL, init?: RequestInit) {
  const body = JSON.parse(String(init?.body ?? '{}')) as { blocks?: Record<string, unknown>[] };
  const bad = (body.blocks ?? []).findIndex((b) => !Number.isInteger(b.curve));
  if (String(url).endsWith('/layout/generate') && bad >= 0)
    return reply(
      {
        error: {
          code: 'VALIDATION_FAILED',
          message: '请求参数有误',
          details: [{ path: `blocks.${bad}.curve`, message: 'Invalid input: expected int, received number' }],
        },
      },
      400,
    );
  const seats = [{ section: 'A', row: '1', number: '1', x: 0, y: 0 }];
  return reply({ seats, duplicates: [], overlaps: 0 });
}

function renderBuilder() {
  return renderInApp(
    <MemoryRouter initialEntries={['/venues/new']}>
      <VenueBuilderPage />
    </MemoryRouter>,
  );
}

// Walk-through #7: a decimal 弧度 gave a generic "请求参数有误" with no field marked, and the
// preview silently kept the previous seats.
describe('venue builder', () => {
  it('marks a decimal 弧度 on the field itself and says the preview is stale', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(fakeGenerate);
    renderBuilder();
    await waitFor(() => expect(screen.getAllByTestId('seat-count')[0]!.textContent).toContain('1'));
    const curve = screen.getByTestId('block-0-curve') as HTMLInputElement;
    fireEvent.change(curve, { target: { value: '12.5' } });
    fireEvent.blur(curve);
    expect(await screen.findByText('请输入整数', {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByTestId('preview-stale', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('请求参数有误')).toBeNull();
    // Nothing with the decimal reached the generator: the field's rule stopped it first.
    const sent = fetch.mock.calls.map(([, init]) => String(init?.body ?? ''));
    expect(sent.some((b) => b.includes('12.5'))).toBe(false);
    // Corrected, the preview follows the form again.
    fireEvent.change(curve, { target: { value: '12' } });
    fireEvent.blur(curve);
    await waitFor(() => expect(screen.queryByTestId('preview-stale')).toBeNull(), { timeout: 10_000 });
  });
});
