import { request } from 'node:http';
import { adminHarness, type AdminHarness } from '../admin/helpers';

/** Issue 12.1: an anonymous caller never makes the server read a large body on /api/v1/admin. */
describe('admin body limits by route and by authentication', () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await adminHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  // 1 MB of JSON that does not parse: a parser that reads it answers 400, one that does not
  // answers before reading (401, 404, 413).
  const junk = '{"x":"' + 'a'.repeat(1024 * 1024);
  const big = (n: number) => ({ username: 'root', password: 'p'.repeat(n) });

  it('never parses the body of a GET: a fan route answers as if there were none', async () => {
    // fetch cannot send a GET with a body; node:http can, and a hostile client will.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${h.api.url}/api/v1/shows`, {
        method: 'GET',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(junk) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(junk);
    });
    expect(status).toBe(200);
  });

  it('refuses a large login body before reading it as JSON', async () => {
    const r = await h.api.call('POST', '/api/v1/admin/login', { body: big(200_000) });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('parses nothing on unknown admin paths', async () => {
    const r = await h.api.call('POST', '/api/v1/admin/no-such-thing', { raw: junk });
    expect([404, 405]).toContain(r.status);
  });

  it('asks for a login before reading the body of a large-body route', async () => {
    const r = await h.api.call('PUT', '/api/v1/admin/venues/1/layout', { raw: junk });
    expect(r.status).toBe(401);
  });

  it('keeps small routes small even for a signed-in admin, and large routes large', async () => {
    const small = await h.api.call('PATCH', '/api/v1/admin/shows/1', {
      token: h.root,
      body: { title: 'x'.repeat(200_000) },
    });
    expect(small.status).toBe(413);
    const large = await h.api.call('POST', '/api/v1/admin/venues/layout/parse', {
      token: h.root,
      body: { format: 'csv', text: 'x'.repeat(200_000) },
    });
    expect(large.status).not.toBe(413);
  });
});
