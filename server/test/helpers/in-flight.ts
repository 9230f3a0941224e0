import { request as httpRequest, type ClientRequest } from 'node:http';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A purchase whose body never finishes arriving: in flight until destroyed. Undefined when the
 * server refused it (a busy test machine can lag over a bound on its own): the caller retries.
 */
function slowRequest(url: string, inFlight: () => number): Promise<ClientRequest | undefined> {
  const before = inFlight();
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/api/v1/orders`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    req.on('error', () => undefined);
    req.on('response', () => {
      req.destroy();
      resolve(undefined);
    });
    req.flushHeaders();
    req.write('{"sessionId":');
    const poll = setInterval(() => {
      if (inFlight() > before) {
        clearInterval(poll);
        resolve(req);
      }
    }, 5);
    req.on('close', () => clearInterval(poll));
  });
}

/** n purchases held in flight on the server at `url` (its lifecycle's count is `inFlight`). */
export async function holdInFlight(url: string, inFlight: () => number, n: number): Promise<ClientRequest[]> {
  const held: ClientRequest[] = [];
  const end = Date.now() + 10_000;
  while (held.length < n) {
    if (Date.now() > end) throw new Error(`only ${held.length} requests in flight`);
    const r = await slowRequest(url, inFlight);
    if (r) held.push(r);
    else await sleep(200);
  }
  return held;
}
