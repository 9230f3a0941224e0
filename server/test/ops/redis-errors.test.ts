import { createHook } from 'node:async_hooks';
import { ReplyError } from 'ioredis';
import { toAppError } from '../../src/http/errors';

/**
 * What ioredis throws while a Redis node is down or a Cluster fails over is a reason to retry in
 * a moment (503 SERVICE_UNAVAILABLE), not a bug of ours (500 INTERNAL).
 */
describe('Redis and Redis Cluster outages answer 503', () => {
  const named = (name: string, message: string) => Object.assign(new Error(message), { name });
  it.each([
    ['CLUSTERDOWN', new ReplyError('CLUSTERDOWN The cluster is down')],
    ['TRYAGAIN', new ReplyError('TRYAGAIN Multiple keys request during rehashing of slot')],
    ['LOADING', new ReplyError('LOADING Redis is loading the dataset in memory')],
    ['redirections', new Error('Too many Cluster redirections. Last error: Error: Connection is closed.')],
    ['closed', new Error('Connection is closed.')],
    ['all failed', named('ClusterAllFailedError', 'Failed to refresh slots cache.')],
    ['retries', named('MaxRetriesPerRequestError', 'Reached the max retries per request limit')],
  ])('%s', (_, err) => {
    expect(toAppError(err).code).toBe('SERVICE_UNAVAILABLE');
    expect(toAppError(err).status).toBe(503);
  });

  it('other errors stay INTERNAL', () => {
    expect(
      toAppError(new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value')).code,
    ).toBe('INTERNAL');
  });
});

/** A port that refuses connections: a free one, taken and closed. */
async function refusingPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

describe('Redis connection errors', () => {
  it("go to the log, never to stderr as ioredis' unhandled error event", async () => {
    const pino = (await import('pino')).default;
    const { createRedis } = await import('../../src/redis/client');
    const port = await refusingPort();
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) });
    const stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const redis = createRedis(`redis://127.0.0.1:${port}/0`, [], log);
    try {
      await expect(redis.get('x')).rejects.toThrow();
      expect(lines.some((l) => l.includes('Redis connection error') && l.includes('ECONNREFUSED'))).toBe(
        true,
      );
      expect(stderr.mock.calls.filter((c) => String(c[0]).includes('Unhandled error event'))).toEqual([]);
    } finally {
      redis.disconnect();
      stderr.mockRestore();
    }
  });

  it('a client closed while Redis is unreachable holds the process open for no longer than a moment', async () => {
    const { createRedis } = await import('../../src/redis/client');
    // The timers the client starts, from its creation to its close, and still pending after.
    const pending = new Set<number>();
    let recording = true;
    const hook = createHook({
      init: (id, type) => void (recording && type === 'Timeout' && pending.add(id)),
      destroy: (id) => void pending.delete(id),
    }).enable();
    try {
      const redis = createRedis(`redis://127.0.0.1:${await refusingPort()}/0`);
      await expect(redis.get('x')).rejects.toThrow();
      redis.disconnect();
      recording = false;
      // ioredis' own disconnect timer (2 s by default) waited for a 'close' the refused socket
      // had already emitted: the Jest worker it was left in could not exit, and was forced to.
      await new Promise((r) => setTimeout(r, 500));
      expect(pending.size).toBe(0);
    } finally {
      hook.disable();
    }
  });
});
