import { resetTaro } from './stubs/taro';
import { seatMapLinkSession, takeLoadedSeatMap, takeSeatMapLoad } from '../../src/seatmap/preload';
import { preloadFromLink } from '../../src/seatmap/preload-link';
import { ok, serveApi } from './fake-api';
import { SESSION, seatMap } from './fixtures';

const full = seatMap({ s2: 'held' });
const base = `/api/v1/sessions/${full.sessionId}`;
const routes = () => ({
  [`GET ${base}/layout`]: ok({
    sessionId: full.sessionId,
    version: 'L1',
    seating: full.seating,
    tiers: full.tiers,
    seats: full.seats.map(({ state: _s, ...seat }) => seat),
    zones: [],
  }),
  [`GET ${base}/seat-states`]: ok({
    sessionId: full.sessionId,
    version: 'v1',
    full: true,
    layoutVersion: 'L1',
    held: ['s2'],
    sold: [],
    zones: [],
  }),
  [`GET ${base}`]: ok(SESSION),
});
const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => resetTaro());

it('reads the session of a seat-map link only', () => {
  expect(seatMapLinkSession('#/pages/seatmap/index?sessionId=7&showId=3')).toBe('7');
  expect(seatMapLinkSession('#/pages/show/index?sessionId=7')).toBe('');
  expect(seatMapLinkSession('')).toBe('');
});

it('hands the load a seat-map link started to the page once, with the model built', async () => {
  const sent = serveApi(routes());
  preloadFromLink(`#/pages/seatmap/index?sessionId=${full.sessionId}&showId=3`);
  expect(sent).toHaveLength(3); // layout, states and session asked for at once
  await flush();
  const ready = takeLoadedSeatMap(full.sessionId)!;
  expect(ready.session).toEqual(SESSION);
  expect(ready.model!.count).toBe(40);
  expect(ready.model!.state[ready.model!.index.get('s2')!]).toBe(1);
  expect(takeLoadedSeatMap(full.sessionId)).toBeUndefined(); // once only
  await takeSeatMapLoad(full.sessionId); // a later open loads afresh
  expect(sent).toHaveLength(5); // states and session again; the layout is known
});

it('does not hand another session the early load', async () => {
  const sent = serveApi(routes());
  preloadFromLink(`#/pages/seatmap/index?sessionId=${full.sessionId}`);
  await flush();
  expect(takeLoadedSeatMap('8')).toBeUndefined();
  await expect(takeSeatMapLoad('8')).rejects.toBeDefined(); // its own load (not served here)
  expect(sent.filter((s) => s.key.includes('/sessions/8'))).not.toHaveLength(0);
});
