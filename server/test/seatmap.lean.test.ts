import { createSession, createUsers, purchase } from './helpers/fixtures';
import { laneAndKoa } from './helpers/lean';

/**
 * The seat states on the lean lane (http/lean.ts): every open seat map polls them. Answered
 * before Koa with the answer its Koa route gives, Cache-Control on success included.
 */
const { t, both } = laneAndKoa();
let sessionId: string;

beforeAll(async () => {
  const s = await createSession(t.env.deps, { seats: 20 });
  sessionId = s.sessionId;
  const [buyer] = await createUsers(t.env.deps, 1);
  await purchase(t.env, buyer!, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!, s.seatIds[1]!] });
});

const states = (q = '', id = sessionId) => `/api/v1/sessions/${id}/seat-states${q}`;

it('answers the seat states before Koa as Koa does: in full, as a delta since a version, cacheable on success only', async () => {
  const full = await both(states());
  expect(full.laneContexts).toBe(0);
  expect(full.viaLane).toEqual({ ...full.viaKoa, id: expect.any(String) });
  expect(full.viaLane.body).toMatchObject({
    full: true,
    held: expect.any(Array),
    version: expect.any(String),
  });
  expect(full.viaLane.headers['cache-control']).toBe(
    'public, max-age=1, stale-while-revalidate=2, stale-if-error=30',
  );
  const version = full.viaLane.body.version!;
  for (const q of [
    `?since=${version}`,
    '?since=not-a-version',
    `?since=${version}&since=${version}`,
    '?since=',
  ]) {
    const r = await both(states(q));
    expect(r.laneContexts).toBe(0);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  const unknown = await both(states('', '999999999'));
  expect(unknown.laneContexts).toBe(0);
  expect(unknown.viaLane.status).toBe(404);
  expect(unknown.viaLane.headers['cache-control']).toBeUndefined();
  expect(unknown.viaLane).toEqual({ ...unknown.viaKoa, id: expect.any(String) });
});

it('leaves other forms of the path to Koa', async () => {
  for (const path of [`${states()}/`, states('', `0${sessionId}`), states('', 'abc')]) {
    const r = await both(path);
    expect(r.laneContexts).toBe(1);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
});
