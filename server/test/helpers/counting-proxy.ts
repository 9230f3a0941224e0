import { createServer, request, type Server } from 'node:http';

/** An HTTP proxy a test puts between the server and the WeChat simulator (real HTTP both ways). */
export interface CountingProxy {
  target?: URL;
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

/** Forwards every request to `target`, counting those in flight (the most at once). */
export async function countingProxy(port: number): Promise<CountingProxy> {
  const state = { target: undefined as URL | undefined, inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(state, {
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
