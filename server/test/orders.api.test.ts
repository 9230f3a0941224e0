import { createSigner } from 'fast-jwt';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, type SessionFixture } from './helpers/fixtures';
import { startTestServer, type TestServer } from './helpers/http';

let env: TestEnv;
let api: TestServer;
let s: SessionFixture;
let users: string[];
let tokens: string[];

beforeAll(async () => {
  env = await createTestEnv();
  api = await startTestServer(env);
  s = await createSession(env.deps, {
    seats: 40,
    vip: 10,
    zones: [{ name: '内场站席', capacity: 6 }],
    purchaseLimit: 4,
  });
  users = await createUsers(env.deps, 6);
  tokens = await Promise.all(users.map((u) => api.tokenFor(u)));
});
afterAll(async () => {
  await api.close();
  await env.close();
});

const order = (i: number, body: unknown, key?: string) =>
  api.call('POST', '/api/v1/orders', {
    token: tokens[i],
    body,
    headers: key ? { 'idempotency-key': key } : {},
  });

describe('catalog', () => {
  it('lists shows and shows a show with its sessions', async () => {
    const list = await api.call('GET', '/api/v1/shows');
    expect(list.status).toBe(200);
    const show = list.body.items.find((x: { id: string }) => x.id === s.showId);
    expect(show).toMatchObject({ priceMinFen: 48_000, priceMaxFen: 188_000, status: 'on_sale' });
    const detail = await api.call('GET', `/api/v1/shows/${s.showId}`);
    expect(detail.body.sessions[0]).toMatchObject({
      id: s.sessionId,
      status: 'on_sale',
      seating: 'reserved',
      purchaseLimit: 4,
      realName: false,
      queueEnabled: false,
    });
    expect(detail.body.sessions[0].startsAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('answers 404 for unknown or malformed ids', async () => {
    expect((await api.call('GET', '/api/v1/shows/999999')).body.error.code).toBe('NOT_FOUND');
    expect((await api.call('GET', '/api/v1/shows/abc')).status).toBe(404);
    expect((await api.call('GET', '/api/v1/sessions/1e9/seatmap')).status).toBe(404);
  });

  it('gives the seat map with tiers, coordinates, live states and zones', async () => {
    const map = await api.call('GET', `/api/v1/sessions/${s.sessionId}/seatmap`);
    expect(map.status).toBe(200);
    expect(map.body.seats).toHaveLength(40);
    expect(map.body.seats[0]).toMatchObject({
      id: s.seatIds[0],
      section: 'A',
      row: '1',
      number: '1',
      state: 'available',
    });
    expect(map.body.tiers.map((t: { priceFen: number }) => t.priceFen)).toEqual([188_000, 68_000, 48_000]);
    expect(map.body.zones).toEqual([
      expect.objectContaining({ id: s.zoneIds[0], capacity: 6, available: 6 }),
    ]);
  });
});

describe('creating orders', () => {
  it('holds seats and prices them from the database', async () => {
    const r = await order(
      0,
      { sessionId: s.sessionId, seatIds: [s.seatIds[0], s.seatIds[20]] },
      'key-create-1',
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'pending', amountFen: 188_000 + 68_000, sessionId: s.sessionId });
    expect(r.body.items).toEqual([
      expect.objectContaining({ seatId: s.seatIds[0], priceFen: 188_000 }),
      expect.objectContaining({ seatId: s.seatIds[20], priceFen: 68_000 }),
    ]);
    expect(Date.parse(r.body.expireAt) - env.clock.now().getTime()).toBe(15 * 60_000);
    const states = await api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`);
    expect(states.body.held).toEqual(expect.arrayContaining([s.seatIds[0], s.seatIds[20]]));
  });

  it('returns the same order for a retry with the same Idempotency-Key, refuses a different body', async () => {
    const body = { sessionId: s.sessionId, seatIds: [s.seatIds[1]] };
    const a = await order(1, body, 'key-retry-1');
    const b = await order(1, body, 'key-retry-1');
    expect(b.status).toBe(201);
    expect(b.body.orderNo).toBe(a.body.orderNo);
    const c = await order(1, { sessionId: s.sessionId, seatIds: [s.seatIds[2]] }, 'key-retry-1');
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const mine = await api.call('GET', '/api/v1/orders', { token: tokens[1] });
    expect(mine.body.items).toHaveLength(1);
  });

  it('keeps the 联系手机 encrypted, answers it masked, and counts it in the retry check', async () => {
    const [buyer] = await createUsers(env.deps, 1);
    const token = await api.tokenFor(buyer!);
    const place = (body: object) =>
      api.call('POST', '/api/v1/orders', { token, body, headers: { 'idempotency-key': 'key-phone-1' } });
    const body = { sessionId: s.sessionId, seatIds: [s.seatIds[12]], contactPhone: '+86 138-0013-8000' };
    const r = await place(body);
    expect(r.status).toBe(201);
    expect(r.body.contactPhone).toBe('138****8000');
    const got = await api.call('GET', `/api/v1/orders/${r.body.orderNo}`, { token });
    expect(got.body.contactPhone).toBe('138****8000');
    const [[row]] = await env.deps.db.query<any[]>(
      'SELECT contact_phone_enc, contact_phone_hash FROM orders WHERE order_no = ?',
      [r.body.orderNo],
    );
    expect(row.contact_phone_enc).not.toContain('13800138000');
    expect(env.deps.vault.decrypt(row.contact_phone_enc)).toBe('13800138000');
    expect(row.contact_phone_hash).toBe(env.deps.vault.phoneHash('13800138000'));
    // The same number written another way is the same request; another number is not.
    expect((await place({ ...body, contactPhone: '13800138000' })).body.orderNo).toBe(r.body.orderNo);
    const other = await place({ ...body, contactPhone: '13900139000' });
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('refuses a seat someone holds: 409 SEAT_TAKEN', async () => {
    const r = await order(2, { sessionId: s.sessionId, seatIds: [s.seatIds[0]] });
    expect(r.status).toBe(409);
    expect(r.body.error).toEqual({
      code: 'SEAT_TAKEN',
      message: '座位已被锁定，请选择其他座位',
      details: { seatId: s.seatIds[0] },
    });
  });

  it('enforces the purchase limit across orders: 409 LIMIT_EXCEEDED', async () => {
    expect((await order(3, { sessionId: s.sessionId, seatIds: s.seatIds.slice(30, 33) })).status).toBe(201);
    const r = await order(3, { sessionId: s.sessionId, zoneId: s.zoneIds[0], quantity: 2 });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('LIMIT_EXCEEDED');
    expect(
      (await order(3, { sessionId: s.sessionId, seatIds: s.seatIds.slice(33, 38) })).body.error.code,
    ).toBe('LIMIT_EXCEEDED');
  });

  it('tells a fan what they may still buy in a session (GET .../quota), before they try', async () => {
    const quota = async (i: number | null, sessionId = s.sessionId) =>
      api.call('GET', `/api/v1/sessions/${sessionId}/quota`, i === null ? {} : { token: tokens[i] });
    // Fan 3 holds 3 of 4 (the test above); fan 5 has bought nothing.
    expect((await quota(3)).body).toMatchObject({
      sessionId: s.sessionId,
      purchaseLimit: 4,
      held: 3,
      remaining: 1,
    });
    expect((await quota(5)).body).toMatchObject({ held: 0, remaining: 4, showPurchaseLimit: null });
    const last = await order(3, { sessionId: s.sessionId, seatIds: [s.seatIds[38]] });
    expect(last.status).toBe(201);
    expect((await quota(3)).body).toMatchObject({ held: 4, remaining: 0 }); // 已达限购
    // A cancelled order gives its units back.
    const cancel = await api.call('POST', `/api/v1/orders/${last.body.orderNo}/cancel`, { token: tokens[3] });
    expect(cancel.status).toBe(200);
    expect((await quota(3)).body).toMatchObject({ held: 3, remaining: 1 });
    expect((await quota(null)).status).toBe(401);
    expect((await quota(3, '999999')).status).toBe(404);
  });

  it('sells general admission by quantity and says SOLD_OUT when the zone runs out', async () => {
    const r = await order(4, { sessionId: s.sessionId, zoneId: s.zoneIds[0], quantity: 4 });
    expect(r.status).toBe(201);
    expect(r.body.items).toHaveLength(4);
    expect(r.body.items[0]).toMatchObject({ zoneId: s.zoneIds[0], priceFen: 48_000, zoneName: '内场站席' });
    const more = await order(5, { sessionId: s.sessionId, zoneId: s.zoneIds[0], quantity: 3 });
    expect(more.status).toBe(409);
    expect(more.body.error.code).toBe('SOLD_OUT');
  });

  it('refuses a presale session: 409 NOT_ON_SALE', async () => {
    const pre = await createSession(env.deps, { seats: 5, open: false });
    const r = await order(5, { sessionId: pre.sessionId, seatIds: [pre.seatIds[0]] });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('NOT_ON_SALE');
  });
});

describe('bad input changes nothing', () => {
  const cases: [string, unknown][] = [
    ['quantity -1', { zoneId: '1', quantity: -1 }],
    ['quantity 0', { zoneId: '1', quantity: 0 }],
    ['quantity 1e9', { zoneId: '1', quantity: 1e9 }],
    ['10,000 seat ids', { seatIds: Array.from({ length: 10_000 }, (_, i) => i + 1) }],
    ['a price in the body', { seatIds: ['1'], priceFen: 1 }],
    ['a status in the body', { seatIds: ['1'], status: 'paid' }],
    ['a user id in the body', { seatIds: ['1'], userId: '1' }],
    ['duplicate seats', { seatIds: ['1', '1'] }],
    ['seats and zone at once', { seatIds: ['1'], zoneId: '1', quantity: 1 }],
    ['no units', {}],
    ['a landline as 联系手机', { seatIds: ['1'], contactPhone: '010-62345678' }],
    ['a 10-digit 联系手机', { seatIds: ['1'], contactPhone: '1380013800' }],
  ];
  it.each(cases)('%s -> 400 VALIDATION_FAILED', async (_name, extra) => {
    const r = await order(5, { sessionId: s.sessionId, ...(extra as object) });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses seats of another session', async () => {
    const other = await createSession(env.deps, { seats: 2 });
    const r = await order(5, { sessionId: s.sessionId, seatIds: [other.seatIds[0]] });
    expect(r.status).toBe(400);
  });

  it('answers 413 for a 10 MB body and 400 for broken JSON', async () => {
    const big = await api.call('POST', '/api/v1/orders', {
      token: tokens[5],
      raw: JSON.stringify({ x: 'a'.repeat(10 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const broken = await api.call('POST', '/api/v1/orders', { token: tokens[5], raw: '{"sessionId":' });
    expect(broken.status).toBe(400);
  });

  it('rejects a malformed Idempotency-Key', async () => {
    const r = await order(5, { sessionId: s.sessionId, seatIds: [s.seatIds[39]] }, 'bad key with spaces');
    expect(r.status).toBe(400);
  });

  it('wrote nothing for any of the refused requests', async () => {
    const [rows] = await env.deps.db.query<any[]>('SELECT COUNT(*) n FROM orders WHERE user_id = ?', [
      users[5],
    ]);
    expect(Number(rows[0].n)).toBe(0);
  });
});

describe('authentication', () => {
  it('requires a token: 401', async () => {
    const r = await api.call('POST', '/api/v1/orders', { body: { sessionId: s.sessionId, seatIds: ['1'] } });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  });

  it('refuses expired, unsigned (alg:none) and wrongly signed tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = createSigner({ key: env.config.authSecret })({
      sub: users[0],
      roles: ['fan'],
      exp: now - 10,
    });
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: users[0], roles: ['fan'], exp: now + 3600 })}.`;
    const forged = createSigner({ key: 'x'.repeat(48) })({ sub: users[0], roles: ['fan'], exp: now + 3600 });
    const noExpiry = createSigner({ key: env.config.authSecret })({ sub: users[0], roles: ['fan'] });
    const adminPage = await api.tokenFor('admin:1', ['admin']);
    for (const t of [expired, none, forged, noExpiry, 'garbage', adminPage]) {
      expect((await api.call('GET', '/api/v1/orders', { token: t })).status).toBe(401);
    }
  });
});

describe('reading and cancelling orders', () => {
  it('shows a buyer only their own orders; another user gets 404', async () => {
    const mine = await api.call('GET', '/api/v1/orders', { token: tokens[0] });
    expect(mine.body.items).toHaveLength(1);
    const no = mine.body.items[0].orderNo;
    expect((await api.call('GET', `/api/v1/orders/${no}`, { token: tokens[0] })).body.orderNo).toBe(no);
    expect((await api.call('GET', `/api/v1/orders/${no}`, { token: tokens[1] })).status).toBe(404);
    expect((await api.call('POST', `/api/v1/orders/${no}/cancel`, { token: tokens[1] })).status).toBe(404);
  });

  it('cancels: seats free again, limit given back, idempotent', async () => {
    const r = await order(2, { sessionId: s.sessionId, seatIds: [s.seatIds[5], s.seatIds[6]] });
    const no = r.body.orderNo;
    const c1 = await api.call('POST', `/api/v1/orders/${no}/cancel`, { token: tokens[2] });
    expect(c1.body.status).toBe('cancelled');
    const c2 = await api.call('POST', `/api/v1/orders/${no}/cancel`, { token: tokens[2] });
    expect(c2.status).toBe(200);
    expect(c2.body.status).toBe('cancelled');
    const again = await order(2, { sessionId: s.sessionId, seatIds: s.seatIds.slice(5, 9) });
    expect(again.status).toBe(201);
  });
});

describe('sold out and back', () => {
  it('moves the session to sold-out by itself and back on sale when seats return', async () => {
    const tiny = await createSession(env.deps, { seats: 2 });
    const r = await order(0, { sessionId: tiny.sessionId, seatIds: tiny.seatIds });
    expect(r.status).toBe(201);
    const soldOut = async () => (await api.call('GET', `/api/v1/sessions/${tiny.sessionId}`)).body.status;
    await waitFor(async () => (await soldOut()) === 'sold_out');
    const next = await order(1, { sessionId: tiny.sessionId, seatIds: [tiny.seatIds[0]] });
    expect(next.body.error.code).toBe('SOLD_OUT');
    await api.call('POST', `/api/v1/orders/${r.body.orderNo}/cancel`, { token: tokens[0] });
    expect(await soldOut()).toBe('on_sale');
  });
});

async function waitFor(cond: () => Promise<boolean>, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
