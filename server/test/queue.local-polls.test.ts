import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { WaitingPlaces, type QueueView } from '../src/queue/waiting-places';

/**
 * A waiting fan's poll answered from what this instance already read (queue/waiting-places.ts):
 * never older than the bound, never an admission, never behind what it said before.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ QUEUE_POLL_MAX_AGE_MS: '500' });
});
afterAll(async () => {
  await env.close();
});

async function openRoom(ratePerMin: number): Promise<SessionFixture> {
  const s = await createSession(env.deps, { seats: 20 });
  await env.deps.db.query('UPDATE show_sessions SET queue_enabled = 1, queue_rate_per_min = ? WHERE id = ?', [
    ratePerMin,
    s.sessionId,
  ]);
  env.deps.catalog.invalidate(s.sessionId);
  await env.deps.queue.tick((await env.deps.catalog.requireSession(s.sessionId))!, env.clock.now());
  return s;
}

const poll = (fan: string, s: SessionFixture) => env.deps.queue.status(fan, s.sessionId, env.clock.now());

/** The admission script run as another instance's tick would run it: this instance is not told. */
async function admitElsewhere(s: SessionFixture, ratePerMin: number) {
  const k = env.deps.keys.session(s.sessionId);
  await env.deps.redis.queueAdmit(
    k.queue.state,
    k.meta,
    k.queue.line,
    k.queue.turns,
    env.clock.now().getTime(),
    ratePerMin,
  );
}

it('another instance admits: a waiting fan hears it from this one within the bound, never as an admission before it', async () => {
  const s = await openRoom(6_000);
  for (const f of ['lp1', 'lp2', 'lp3']) await env.deps.queue.join(f, s.sessionId, {}, env.clock.now());
  env.clock.advance(100);
  await admitElsewhere(s, 6_000); // 100 ms at 100 a second: all three admitted in Redis
  // Answered from the places and the state noted at the joins, 100 ms ago: still waiting.
  expect(await poll('lp2', s)).toMatchObject({ state: 'waiting', position: 2, admittedThrough: 0 });
  env.clock.advance(399);
  expect(await poll('lp3', s)).toMatchObject({ state: 'waiting', admitted: false });
  // The state is now as old as the bound: the poll reads Redis, with the turn and its token.
  env.clock.advance(1);
  const st = await poll('lp2', s);
  expect(st).toMatchObject({ state: 'admitted', position: 2, admittedThrough: 3 });
  expect(st.admissionToken).toEqual(expect.any(String));
  // That read is noted: the others are told at once, and nothing goes back.
  expect(await poll('lp3', s)).toMatchObject({ state: 'admitted', admittedThrough: 3 });
});

it('the instance that runs the tick answers with its result at once', async () => {
  const s = await openRoom(6_000);
  for (const f of ['tk1', 'tk2']) await env.deps.queue.join(f, s.sessionId, {}, env.clock.now());
  expect(await poll('tk2', s)).toMatchObject({ state: 'waiting', ahead: 1 });
  env.clock.advance(100);
  await env.deps.queue.tick((await env.deps.catalog.requireSession(s.sessionId))!, env.clock.now());
  expect(await poll('tk2', s)).toMatchObject({ state: 'admitted', admittedThrough: 2 });
});

it('a fan whose place this instance never saw reads Redis', async () => {
  const s = await openRoom(6_000);
  await env.deps.queue.join('seen', s.sessionId, {}, env.clock.now());
  // Another instance's join, as its script leaves the line: the next place, given to 'unseen'.
  const q = env.deps.keys.session(s.sessionId).queue;
  await env.deps.redis.multi().zadd(q.line, 2, 'unseen').hset(q.state, 'seq', 2).exec();
  expect(await poll('unseen', s)).toMatchObject({ state: 'waiting', position: 2 });
  // A fan who never joined is told so, not given someone's place.
  expect(await poll('nobody', s)).toMatchObject({ state: 'not_joined', position: null });
});

describe('WaitingPlaces', () => {
  const view = (place: string, admitted: number, epoch = '1', soldOut = '0'): QueueView => [
    place,
    '0',
    String(admitted),
    soldOut,
    '0',
    '0',
    '',
    epoch,
  ];
  const known = (position: number, admittedThrough: number, soldOut = false) => ({
    position,
    admittedThrough,
    soldOut,
  });

  it('answers only a known, not yet admitted place, and only while the state is younger than the bound', () => {
    const w = new WaitingPlaces({ pollMaxAgeMs: 500, placesPerRoomMax: 10 });
    w.noteView('s', 'a', view('7', 3), 1_000);
    expect(w.waiting('s', 'a', 1_000)).toEqual(known(7, 3));
    expect(w.waiting('s', 'a', 1_499)).toEqual(known(7, 3));
    expect(w.waiting('s', 'a', 1_500)).toBeUndefined();
    expect(w.waiting('s', 'a', 999)).toBeUndefined(); // a clock that went back: not trusted
    expect(w.waiting('s', 'b', 1_000)).toBeUndefined();
    expect(w.waiting('other', 'a', 1_000)).toBeUndefined();
    w.noteAdmitted('s', '1', 7, false, 1_100);
    expect(w.waiting('s', 'a', 1_100)).toBeUndefined(); // admitted: Redis has the turn
  });

  it('never goes back within an epoch; a newer epoch starts over, an older or a lost one is ignored', () => {
    const w = new WaitingPlaces({ pollMaxAgeMs: 500, placesPerRoomMax: 10 });
    w.noteView('s', 'a', view('9', 5), 1_000);
    w.noteView('s', 'b', view('8', 4), 1_010); // a read overtaken by the one above
    expect(w.waiting('s', 'a', 1_010)).toEqual(known(9, 5));
    expect(w.waiting('s', 'b', 1_010)).toEqual(known(8, 5)); // its place still counts
    w.noteView('s', 'a', view('', 0, ''), 1_020); // Redis lost the queue: nothing noted
    expect(w.waiting('s', 'a', 1_020)).toEqual(known(9, 5));
    w.noteView('s', 'c', view('2', 0, '2'), 1_030); // rebuilt: the old epoch's places are gone
    expect(w.waiting('s', 'a', 1_030)).toBeUndefined();
    expect(w.waiting('s', 'c', 1_030)).toEqual(known(2, 0));
    w.noteView('s', 'a', view('9', 5, '1'), 1_040);
    expect(w.waiting('s', 'a', 1_040)).toBeUndefined();
    w.noteView('s', 'c', view('', 0, '2'), 1_050); // its place given up
    expect(w.waiting('s', 'c', 1_050)).toBeUndefined();
  });

  it('sold out is told as read; the oldest place goes past the bound; 0 turns it off', () => {
    const w = new WaitingPlaces({ pollMaxAgeMs: 500, placesPerRoomMax: 2 });
    w.noteView('s', 'a', view('5', 1), 0);
    w.noteView('s', 'b', view('6', 1), 0);
    w.noteAdmitted('s', '1', 1, true, 10);
    expect(w.waiting('s', 'b', 10)).toEqual(known(6, 1, true));
    w.noteView('s', 'c', view('7', 1, '1', '0'), 20); // stock came back
    expect(w.waiting('s', 'a', 20)).toBeUndefined();
    expect(w.waiting('s', 'c', 20)).toEqual(known(7, 1, false));
    const off = new WaitingPlaces({ pollMaxAgeMs: 0, placesPerRoomMax: 10 });
    off.noteView('s', 'a', view('5', 1), 0);
    expect(off.waiting('s', 'a', 0)).toBeUndefined();
    const noPlaces = new WaitingPlaces({ pollMaxAgeMs: 500, placesPerRoomMax: 0 });
    noPlaces.noteView('s', 'a', view('5', 1), 0);
    noPlaces.noteView('s', 'b', view('6', 1), 0);
    // The admission tick's note keeps no room either (it did, with no places, before).
    noPlaces.noteAdmitted('s', '1', 1, false, 0);
    expect(noPlaces.waiting('s', 'a', 0)).toBeUndefined();
    expect(noPlaces.roomCount).toBe(0);
  });

  it('a room nobody read for ten minutes is dropped, with its places, when another room is noted', () => {
    const w = new WaitingPlaces({ pollMaxAgeMs: 500, placesPerRoomMax: 10 });
    const TEN_MIN = 10 * 60_000;
    w.noteView('old', 'a', view('5', 1), 0);
    w.noteView('old', 'x', view('6', 1), 0);
    w.noteView('busy', 'b', view('5', 1), 0);
    w.noteAdmitted('busy', '1', 2, false, TEN_MIN); // read again since
    w.noteView('new', 'c', view('5', 1), TEN_MIN + 1);
    expect(w.roomCount).toBe(2);
    expect(w.waiting('busy', 'b', TEN_MIN + 1)).toEqual(known(5, 2));
    w.noteView('old', 'a', view('5', 1), TEN_MIN + 2); // noted anew: its other places are gone
    expect(w.waiting('old', 'a', TEN_MIN + 2)).toEqual(known(5, 1));
    expect(w.waiting('old', 'x', TEN_MIN + 2)).toBeUndefined();
  });
});
