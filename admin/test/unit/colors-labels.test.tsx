import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { smallVenue } from './fixtures';
import { TierPainter } from '../../src/pages/shows/TierPainter';
import { initialState, type TierState } from '../../src/pages/shows/tierModel';
import { colorDistance, heldColor, TOO_CLOSE } from '../../src/seatmap/colors';
import { seatLabel } from '../../src/seatmap/geometry';
import { sectionLabel } from '@showtix/shared-types';
import { defaultSession } from '../../src/pages/dashboard/defaultSession';

const venue = smallVenue('内场A区', 2, [{ id: '9', name: '草坪', capacity: 100 }]);

// Walk-through #9: a new tier's automatic colour repeated the standing zone's teal.
describe('tier colours', () => {
  it(
    'a tier added in the painter never repeats a colour the session already uses',
    { timeout: 120_000 },
    () => {
      let state: TierState = initialState(venue);
      const onChange = vi.fn((s: TierState) => (state = s));
      const { rerender } = render(
        <AntApp>
          <TierPainter venue={venue} value={state} onChange={onChange} claimedSeats={new Set()} />
        </AntApp>,
      );
      for (let i = 0; i < 3; i++) {
        fireEvent.click(screen.getByTestId('add-tier'));
        rerender(
          <AntApp>
            <TierPainter venue={venue} value={state} onChange={onChange} claimedSeats={new Set()} />
          </AntApp>,
        );
      }
      const colors = state.tiers.map((t) => t.color.toLowerCase());
      expect(colors).toHaveLength(5);
      expect(new Set(colors).size).toBe(colors.length);
    },
  );

  // Walk-through #9: 锁座中 used the same orange as the demo's 内场 tier.
  it('the live map shows held seats in a colour far from every tier colour', () => {
    const demo = ['#e4393c', '#ff8a00', '#2f7cf6'];
    const held = heldColor(demo);
    for (const c of demo) expect(colorDistance(held, c)).toBeGreaterThanOrEqual(TOO_CLOSE);
    expect(heldColor(['#2f7cf6'])).toBe('#ff8a00');
  });
});

// Walk-through #8: "内场A区区" across the admin.
describe('seat labels', () => {
  it('never double 区, and name a seat the same way as the fan app', () => {
    expect(seatLabel({ section: '内场A区', row: '3', number: '12' })).toBe('内场A区 3排12座');
    expect(seatLabel({ section: 'A', row: '10', number: '5' })).toBe('A区 10排5座');
    expect(sectionLabel('池座A区')).toBe('池座A区');
    expect(sectionLabel('看台')).toBe('看台');
  });
});

// Walk-through #11: the dashboard opened on an arbitrary session.
describe('the dashboard session', () => {
  const at = (id: string, startsAt: string) => ({
    id,
    showId: '1',
    showTitle: 's',
    startsAt,
    status: 'on_sale' as const,
  });
  const items = [
    at('1', '2026-12-01T10:00:00Z'),
    at('3', '2026-12-09T10:00:00Z'),
    at('2', '2026-12-05T10:00:00Z'),
  ];
  const now = Date.parse('2026-12-02T00:00:00Z');

  it('is the last chosen while live, else the next to start, else the latest started', () => {
    expect(defaultSession(items, now, '3')).toBe('3');
    expect(defaultSession(items, now, 'gone')).toBe('2');
    expect(defaultSession(items, Date.parse('2027-01-01T00:00:00Z'), null)).toBe('3');
    expect(defaultSession([], now, null)).toBeUndefined();
  });
});
