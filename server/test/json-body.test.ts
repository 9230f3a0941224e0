import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { bodyParser } from '@koa/bodyparser';
import { plainJsonBody } from '../src/http/json-body';
import { rawBodyParser } from '../src/http/lean';

/**
 * The lean lane's direct read of a plain JSON body (http/json-body.ts) against the app's body
 * parser: for every body, the same value or the same refusal (its status), and every request it
 * does not take left to the parser.
 */
const LIMIT = 64;
/** The app's parser with the app's options (app.ts fanBodyParser), never the direct read. */
const parser = rawBodyParser(bodyParser({ enableTypes: ['json'], jsonLimit: LIMIT, encoding: 'utf-8' }), -1);

function request(body: Buffer | string, headers: Record<string, string>): IncomingMessage {
  const s = new PassThrough();
  s.end(body);
  return Object.assign(s, { headers, method: 'POST' }) as unknown as IncomingMessage;
}
const json = (body: Buffer | string, type = 'application/json') => ({
  'content-type': type,
  'content-length': String(Buffer.byteLength(body)),
});
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value }),
    (err: { status?: number }) => ({ status: err.status }),
  );

it('reads each body as the app’s parser does: the same value or the same 400', async () => {
  const bodies: (Buffer | string)[] = [
    '{"sessionId":"1","seatIds":["2"]}',
    '',
    ' \n\t[1, 2]',
    '\uFEFF{"a":1}', // a BOM, which the parser's decoder drops
    '{"a":"\u4e2d\u6587"}',
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), // invalid UTF-8 in a string
    '"a"',
    '1',
    'null',
    '{',
    '{"a":1}x',
    '{"__proto__":{"admin":true}}',
    '{"a":{"constructor":{"prototype":{"x":1}}}}',
  ];
  for (const type of ['application/json', 'application/json; charset=utf-8']) {
    for (const body of bodies) {
      const direct = plainJsonBody(request(body, json(body, type)), LIMIT);
      expect(direct).toBeDefined();
      const got = await outcome(direct!);
      expect(got).toEqual(await outcome(parser(request(body, json(body, type)))));
    }
  }
  expect(await outcome(plainJsonBody(request('{}', json('{}')), LIMIT)!)).toEqual({ value: {} });
  expect(await outcome(plainJsonBody(request('{"__proto__":1}', json('{"__proto__":1}')), LIMIT)!)).toEqual({
    status: 400,
  });
});

it('refuses a body shorter than its Content-Length with a 400, as the parser does', async () => {
  const headers = { 'content-type': 'application/json', 'content-length': '9' };
  const direct = await outcome(plainJsonBody(request('{}', headers), LIMIT)!);
  expect(direct).toEqual({ status: 400 });
  expect(await outcome(parser(request('{}', headers)))).toEqual(direct);
});

it('leaves every other request to the parser: another type, an encoding, no length, over the limit', async () => {
  const body = '{"a":1}';
  const others: Record<string, string>[] = [
    { 'content-length': '7' },
    json(body, 'text/plain'),
    json(body, 'Application/JSON'),
    json(body, 'application/json;charset=utf-8'),
    json(body, 'application/vnd.api+json'),
    { ...json(body), 'content-encoding': 'gzip' },
    { ...json(body), 'content-encoding': 'identity' },
    { ...json(body), 'transfer-encoding': 'chunked' },
    { 'content-type': 'application/json' },
    { 'content-type': 'application/json', 'content-length': '+7' },
    { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) },
  ];
  for (const headers of others) expect(plainJsonBody(request(body, headers), LIMIT)).toBeUndefined();
  const atLimit = `[${' '.repeat(LIMIT - 2)}]`;
  expect(atLimit).toHaveLength(LIMIT);
  await expect(plainJsonBody(request(atLimit, json(atLimit)), LIMIT)).resolves.toEqual([]);
});
