import http from 'node:http';
import { loadConfig } from '../../src/config';
import { canReusePort } from '../../src/config/runtime';
import { migrateUp } from '../../src/db/migrate';
import { dropDatabase } from '../../src/db/pool';
import { deleteTopology } from '../../src/outbox/topology';
import { startServer, type RunningServer } from '../../src/server';
import { deleteKeys, testConfig } from '../helpers/env';

const reusePortHere = canReusePort(process.versions.node);

describe('LISTEN_SOCKETS: the API on several listening sockets of one port', () => {
  it('knows which Node.js can listen with SO_REUSEPORT', () => {
    expect(canReusePort('20.20.2', 'linux')).toBe(false);
    expect(canReusePort('22.11.0', 'linux')).toBe(false);
    expect(canReusePort('22.12.0', 'linux')).toBe(true);
    expect(canReusePort('23.0.0', 'linux')).toBe(false);
    expect(canReusePort('23.1.0', 'linux')).toBe(true);
    expect(canReusePort('24.22.3', 'linux')).toBe(true);
    expect(canReusePort('24.22.3', 'darwin')).toBe(false);
    expect(canReusePort('24.22.3', 'win32')).toBe(false);
  });

  it('defaults to one; refuses 0 and more than 64; refuses more than one where Node cannot', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).listenSockets).toBe(1);
    expect(() => loadConfig({ NODE_ENV: 'test', LISTEN_SOCKETS: '0' })).toThrow(/LISTEN_SOCKETS/);
    expect(() => loadConfig({ NODE_ENV: 'test', LISTEN_SOCKETS: '65' })).toThrow(/LISTEN_SOCKETS/);
    const four = () => loadConfig({ NODE_ENV: 'test', LISTEN_SOCKETS: '4' });
    if (reusePortHere) expect(four().listenSockets).toBe(4);
    else expect(four).toThrow(/LISTEN_SOCKETS=4 needs SO_REUSEPORT.*set 1/);
  });

  // Runs under Node 24 (npm test's "server under Node 24" step); on Node 20 it is reported skipped.
  (reusePortHere ? describe : describe.skip)('a server on four sockets', () => {
    let config: ReturnType<typeof testConfig>;
    let running: RunningServer;
    beforeAll(async () => {
      config = testConfig({ PORT: '0', LISTEN_SOCKETS: '4' });
      await migrateUp(config.mysqlUrl);
      running = await startServer(config);
    });
    afterAll(async () => {
      // The test closes it itself; if it failed first, nothing must be left listening.
      if (running?.servers.some((s) => s.listening)) await running.close();
      await deleteTopology(config.amqpUrl, config.amqpPrefix);
      await deleteKeys(config.redisUrl, config.redisKeyPrefix);
      await dropDatabase(config.mysqlUrl);
    });

    it('listens on one port four times, spreads connections over them, and closes them all', async () => {
      const ports = running.servers.map((s) => (s.address() as { port: number }).port);
      expect(ports).toEqual([ports[0], ports[0], ports[0], ports[0]]);
      const accepted = running.servers.map(() => 0);
      running.servers.forEach((s, i) => s.on('connection', () => accepted[i]++));
      // 64 connections of their own (no keep-alive pool): the kernel hashes each to a socket.
      const agent = new http.Agent({ keepAlive: false });
      const statuses = await Promise.all(
        Array.from(
          { length: 64 },
          () =>
            new Promise<number>((resolve, reject) => {
              http
                .get(`${running.url}/livez`, { agent }, (res) => {
                  res.resume();
                  resolve(res.statusCode ?? 0);
                })
                .on('error', reject);
            }),
        ),
      );
      expect(statuses.every((st) => st === 200)).toBe(true);
      expect(accepted.reduce((a, b) => a + b, 0)).toBe(64);
      // Each socket took some (a socket left out of 64 hashed connections: odds about 4 in a million).
      expect(accepted.every((n) => n > 0)).toBe(true);
      await running.close();
      expect(running.servers.every((s) => !s.listening)).toBe(true);
      await expect(fetch(`${running.url}/livez`)).rejects.toThrow();
    });
  });
});
