import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../../../scripts/lib/free-port';

/** A private redis-server, so a test may FLUSHALL or restart it without touching anyone else. */
export interface PrivateRedis {
  url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Redis answers PONG once it accepts commands (a plain socket: no client timers left behind). */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.once('data', (d) => {
      sock.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    sock.once('error', () => {
      sock.destroy();
      resolve(false);
    });
  });
}

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await ping(port)) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}/0`;
  let proc: ChildProcess | undefined;
  const start = async () => {
    proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitReady(port);
  };
  const stop = async () => {
    if (!proc || proc.exitCode !== null) return;
    const p = proc;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  };
  await start();
  return {
    url,
    async restart() {
      await stop();
      await start();
    },
    stop,
  };
}
