import { resetTaro } from './stubs/taro';
import { getSeatMap } from '../../src/services/catalog';
import { ok, serveApi } from './fake-api';
import { seatMap } from './fixtures';

const full = seatMap();
const layout = (version: string) => ({
  sessionId: full.sessionId,
  version,
  seating: full.seating,
  tiers: full.tiers,
  seats: full.seats.map(({ state: _s, ...seat }) => seat),
  zones: [],
});
const states = (layoutVersion: string, version: string) => ({
  sessionId: full.sessionId,
  version,
  full: true,
  layoutVersion,
  held: ['s2'],
  sold: [],
  zones: [],
});

beforeEach(() => resetTaro());

it('loads the layout once per version, then only the states', async () => {
  const base = `/api/v1/sessions/${full.sessionId}`;
  const sent = serveApi({
    [`GET ${base}/layout`]: ok(layout('L1')),
    [`GET ${base}/seat-states`]: [ok(states('L1', 'v1')), ok(states('L1', 'v2')), ok(states('L2', 'v3'))],
    [`GET ${base}/layout?v=L2`]: ok(layout('L2')),
  });
  const paths = () =>
    sent.map((s) => s.key.replace(/^GET https?:\/\/[^/]+/, 'GET ').replace(/^GET (?=\/)/, ''));
  const first = await getSeatMap(full.sessionId);
  expect(first).toMatchObject({ layoutVersion: 'L1', statesVersion: 'v1' });
  expect(first.seats.find((s) => s.id === 's2')!.state).toBe('held');
  expect(paths().filter((p) => p.includes('/layout'))).toHaveLength(1);
  // Opened again: the layout is known, only the states are asked for.
  const again = await getSeatMap(full.sessionId);
  expect(again.statesVersion).toBe('v2');
  expect(paths().filter((p) => p.includes('/layout'))).toHaveLength(1);
  // The layout changed (an edit before the sale): fetched again by its versioned URL.
  const edited = await getSeatMap(full.sessionId);
  expect(edited.layoutVersion).toBe('L2');
  expect(paths().filter((p) => p.includes('/layout'))).toEqual([
    expect.stringMatching(/\/layout$/),
    expect.stringMatching(/\/layout\?v=L2$/),
  ]);
});
