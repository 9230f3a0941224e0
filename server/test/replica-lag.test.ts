import type { RowDataPacket } from 'mysql2';
import pino from 'pino';
import type { Db } from '../src/db/pool';
import { ReplicaRouter } from '../src/db/replica';
import { GtidLag, type RowsOf } from '../src/db/replica-lag';

/**
 * The GTID lag bound without a server: a fake MariaDB primary and replica whose positions the
 * test moves. The bound must never be below the age of the oldest write the replica misses,
 * however the checks fall between the writes (the real pair is in test/replica).
 */
function pair() {
  const s = { primary: '0-1-5', replica: '0-1-5' };
  const answer =
    (side: 'primary' | 'replica'): RowsOf =>
    async (sql) => {
      if (/VERSION\(\)/.test(sql)) return [{ v: '11.8.3-MariaDB' }] as RowDataPacket[];
      return [{ pos: s[side] }] as RowDataPacket[];
    };
  return { s, lag: new GtidLag(answer('primary'), answer('replica')) };
}

it('a write made before the check that notes it counts from the last position seen applied', async () => {
  const { s, lag } = pair();
  expect(await lag.measure(0)).toBe(0);
  s.primary = '0-1-6'; // written at 100 ms; the replica does not have it
  // The first check to see it comes 800 ms later: the write may be up to 900 ms old.
  expect(await lag.measure(900)).toBe(900);
  expect(await lag.measure(2100)).toBe(2100);
  s.replica = '0-1-6';
  expect(await lag.measure(2300)).toBe(0);
});

it('a replica never seen caught up has an unknown (very large) lag', async () => {
  const { s, lag } = pair();
  s.replica = '0-1-4';
  expect(await lag.measure(0)).toBeGreaterThanOrEqual(3_600_000);
});

it('a replica caught up in one domain but behind in another is behind', async () => {
  const { s, lag } = pair();
  s.primary = '0-1-5,1-1-3';
  s.replica = '0-1-5,1-1-3';
  expect(await lag.measure(0)).toBe(0);
  s.primary = '0-1-7,1-1-4';
  s.replica = '0-1-7,1-1-3';
  expect(await lag.measure(500)).toBe(500);
});

/** A Db answering from a function: stands in for a primary or a replica without a server. */
const fakeDb = (answer: (sql: string) => Promise<object[]>) =>
  ({
    query: async (sql: string) => [await answer(sql), []],
    end: async () => undefined,
  }) as unknown as Db;

it('check() measures afresh: a measurement already in flight, answered before replication stopped, does not vouch for the replica', async () => {
  const threads = { io: 'Yes', sql: 'Yes' };
  let release = () => {};
  let gate = Promise.resolve();
  const replica = fakeDb(async (sql) => {
    if (/SHOW REPLICA STATUS/.test(sql)) {
      // Answered as of when the server got the question, delivered when the gate opens.
      const row = { Slave_IO_Running: threads.io, Slave_SQL_Running: threads.sql, Seconds_Behind_Master: 0 };
      await gate;
      return [row];
    }
    return [{ pos: '0-1-5' }];
  });
  const primary = fakeDb(async (sql) => [/VERSION/.test(sql) ? { v: '11.8.3-MariaDB' } : { pos: '0-1-5' }]);
  const router = new ReplicaRouter(primary, replica, {
    maxLagMs: 2000,
    poolSize: 2,
    log: pino({ level: 'silent' }),
  });
  try {
    await router.check();
    expect(router.state().target).toBe('replica');
    gate = new Promise<void>((r) => (release = r));
    const inFlight = router.check(); // asked while replication still runs
    await new Promise((r) => setImmediate(r));
    threads.sql = 'No'; // then replication stops, and a caller asks for a measurement
    const fresh = router.check();
    release();
    await Promise.all([inFlight, fresh]);
    expect(router.state()).toMatchObject({ target: 'primary', reason: expect.stringMatching(/not running/) });
  } finally {
    await router.close();
  }
});
