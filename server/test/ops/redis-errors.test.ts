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
