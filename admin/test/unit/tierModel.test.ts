import { describe, expect, it } from 'vitest';
import type { AdminSessionDetail } from '@showtix/shared-types';
import { smallVenue } from './fixtures';
import {
  initialState,
  nextSelection,
  paintSeats,
  problems,
  stateFromSession,
  toTierSpecs,
} from '../../src/pages/shows/tierModel';

const venue = smallVenue('A', 3, [{ id: '9', name: '草坪', capacity: 100 }]);

describe('tier drafts', () => {
  it('start with every seat in one tier and every zone on sale', () => {
    const s = initialState(venue);
    expect(s.tiers.map((t) => t.name)).toEqual(['看台', '草坪']);
    expect(toTierSpecs(s)).toEqual([
      { name: '看台', priceFen: 38_000, color: expect.any(String), seatIds: ['1', '2', '3'] },
      { name: '草坪', priceFen: 28_000, color: expect.any(String), zoneName: '草坪' },
    ]);
  });

  it('send an empty seat list for a tier without seats (never "the rest")', () => {
    const s = initialState(venue);
    s.tiers.push({ key: 'x', name: 'VIP', priceYuan: 1880, color: '#000000', claimed: 0 });
    expect(toTierSpecs(s)[2]).toMatchObject({ name: 'VIP', seatIds: [] });
  });

  it('round-trip an existing session, keeping ids', () => {
    const session = {
      tiers: [
        { id: '11', name: 'VIP', priceFen: 188_000, seatCount: 1, zoneName: null, capacity: 1, claimed: 1 },
        { id: '12', name: '看台', priceFen: 68_000, seatCount: 2, zoneName: null, capacity: 2, claimed: 0 },
      ],
      seatTiers: { '1': '11', '2': '12', '3': '12' },
    } as unknown as AdminSessionDetail;
    const specs = toTierSpecs(stateFromSession(session));
    expect(specs.map((t) => [t.id, t.priceFen, t.seatIds])).toEqual([
      ['11', 188_000, ['1']],
      ['12', 68_000, ['2', '3']],
    ]);
  });

  it('report blank or duplicate names and bad prices', () => {
    const s = initialState(venue);
    s.tiers[1]!.name = '看台';
    s.tiers[0]!.priceYuan = null;
    expect(problems(s)).toEqual(['票档名称不能重复', '「看台」的票价不正确']);
  });
});

describe('painting seats', () => {
  it('a click toggles its seats; a box replaces the selection, or adds to it with Shift', () => {
    const picked = new Set(['1', '2']);
    expect([...nextSelection(picked, ['1', '2'], 'row', false)]).toEqual([]);
    expect([...nextSelection(picked, ['2', '3'], 'row', false)]).toEqual(['1', '2', '3']);
    expect([...nextSelection(picked, ['3'], 'box', false)]).toEqual(['3']);
    expect([...nextSelection(picked, ['3'], 'lasso', true)]).toEqual(['1', '2', '3']);
  });

  it('sold or held seats keep their tier and are counted', () => {
    const before = new Map([
      ['1', 'a'],
      ['2', 'a'],
    ]);
    const { seatTier, locked } = paintSeats(before, ['1', '2', '3'], new Set(['2']), 'b');
    expect([...seatTier]).toEqual([
      ['1', 'b'],
      ['2', 'a'],
      ['3', 'b'],
    ]);
    expect(locked).toBe(1);
    expect(before.get('1')).toBe('a'); // the old state is left as it was
    expect(paintSeats(before, ['1'], new Set(), undefined).seatTier.has('1')).toBe(false);
  });
});
