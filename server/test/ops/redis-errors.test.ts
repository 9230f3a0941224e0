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

describe('Redis connection errors', () => {
  it("go to the log, never to stderr as ioredis' unhandled error event", async () => {
    const { createServer } = await import('node:net');
    const pino = (await import('pino')).default;
    const { createRedis } = await import('../../src/redis/client');
    // A port that refuses connections: take a free one and close it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const a = s.address();
        s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
      });
    });
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
});
