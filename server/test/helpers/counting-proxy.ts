import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPayEnv, type PayEnv, type PayEnvOptions } from './pay-env';

/** An HTTP proxy a test puts between the server and the WeChat simulator (real HTTP both ways). */
export interface CountingProxy {
  target?: URL;
  inFlight: number;
  maxInFlight: number;
  /** Each request's method, path and Authorization header, in arrival order. */
  seen: { method: string; path: string; authorization: string }[];
  port: number;
  close(): Promise<void>;
}

/** Forwards every request to `target`, counting those in flight (the most at once). */
export async function countingProxy(): Promise<CountingProxy> {
  const state = {
    target: undefined as URL | undefined,
    inFlight: 0,
    maxInFlight: 0,
    seen: [] as CountingProxy['seen'],
  };
  const server: Server = createServer((req, res) => {
    state.seen.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization ?? '' });
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    const t = state.target!;
    const out = request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
        answer.on('end', () => state.inFlight--);
      },
    );
    out.on('error', () => {
      state.inFlight--;
      res.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A PayEnv whose WeChat Pay calls go through a counting proxy (`proxy`); `close` stops both. */
export async function payEnvBehindProxy(
  o: PayEnvOptions = {},
): Promise<{ p: PayEnv; proxy: CountingProxy; close(): Promise<void> }> {
  const proxy = await countingProxy();
  const base = `http://127.0.0.1:${proxy.port}`;
  const p = await createPayEnv({ ...o, env: { ...o.env, WECHAT_PAY_API_BASE: base } });
  proxy.target = new URL(p.sim.url);
  const close = async () => {
    await p.close();
    await proxy.close();
  };
  return { p, proxy, close };
}
