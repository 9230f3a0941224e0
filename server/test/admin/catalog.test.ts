import { adminHarness, auditRows, blocks, type AdminHarness } from './helpers';

let h: AdminHarness;
let op: ReturnType<AdminHarness['as']>;
let staffManager: ReturnType<AdminHarness['as']>;

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
/** A valid session body without tiers: on sale in 10 days, showing in 30. */
const sessionBase = () => ({
  startsAt: future(30),
  saleStartsAt: future(10),
  holdMinutes: 15,
  purchaseLimit: 4,
  realName: false,
  queueEnabled: false,
});

beforeAll(async () => {
  h = await adminHarness();
  op = h.as(await h.tokenWithRoles(['operator']));
  staffManager = h.as(await h.tokenWithRoles(['staff_manager']));
});
afterAll(async () => {
  await h.close();
});

describe('venues', () => {
  it('previews a generated layout with aisles, gaps and curves', async () => {
    const r = await op('POST', '/api/v1/admin/venues/layout/generate', {
      blocks: [{ section: 'A', rows: 3, seatsPerRow: 10, aisles: [5], gaps: [1], curve: 20 }],
    });
    expect(r.status).toBe(200);
    expect(r.body.seats).toHaveLength(27);
    expect(r.body).toMatchObject({ duplicates: [], overlaps: 0 });
    const row1 = r.body.seats.filter((s: { row: string }) => s.row === '1');
    expect(row1.map((s: { number: string }) => s.number)).toEqual([
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
    // The aisle after seat 5 is one seat wide.
    expect(row1[4].x - row1[3].x).toBe(20);
    // Curved: the ends sit closer to the stage (smaller y) than the middle.
    expect(row1[0].y).toBeLessThan(row1[4].y);
  });

  it('creates a venue from blocks and zones, audited, and exports it as CSV and JSON', async () => {
    const r = await op('POST', '/api/v1/admin/venues', {
      name: '梅赛德斯奔驰文化中心',
      city: '上海',
      blocks: blocks(['A', 10, 20], ['B', 10, 20]),
      zones: [{ name: '内场站席', capacity: 300 }],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: '梅赛德斯奔驰文化中心',
      seatCount: 400,
      zoneCount: 1,
      sections: ['A', 'B'],
    });
    const [entry] = (await auditRows(h, 'venue.create')).filter((e) => e.entity_id === r.body.id);
    expect(JSON.parse(entry!.after_json)).toMatchObject({ seatCount: 400, blocks: expect.any(Array) });

    const csv = await h.api.call('GET', `/api/v1/admin/venues/${r.body.id}/layout?format=csv`, {
      token: await h.login(),
    });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain("filename*=UTF-8''");
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]!.replace(/^\uFEFF/, '')).toBe('section,row,number,x,y'); // fetch's text() drops the BOM
    expect(lines).toHaveLength(401);

    const json = await op('GET', `/api/v1/admin/venues/${r.body.id}/layout?format=json`);
    expect(json.body.seats).toHaveLength(400);
    expect(json.body.zones).toEqual([{ name: '内场站席', capacity: 300 }]);

    // Round trip: the export imports back into an identical venue.
    const parsed = await op('POST', '/api/v1/admin/venues/layout/parse', { format: 'csv', text: csv.body });
    expect(parsed.body.seats).toHaveLength(400);
    const copy = await op('POST', '/api/v1/admin/venues', {
      name: '副本',
      seats: parsed.body.seats,
      zones: json.body.zones,
    });
    expect(copy.body.seatCount).toBe(400);
  });

  it('accepts a 2,000-seat layout as explicit seats (above the fan API body limit)', async () => {
    const gen = await op('POST', '/api/v1/admin/venues/layout/generate', { blocks: blocks(['A', 50, 40]) });
    expect(gen.body.seats).toHaveLength(2000);
    const r = await op('POST', '/api/v1/admin/venues', { name: '大剧院', seats: gen.body.seats });
    expect(r.status).toBe(201);
    expect(r.body.seatCount).toBe(2000);
  });

  it('rejects duplicate seat labels, bad CSV lines and empty venues', async () => {
    const dup = await op('POST', '/api/v1/admin/venues', {
      name: 'x',
      blocks: blocks(['A', 1, 2], ['A', 1, 2]),
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toContain('座位编号重复');
    const csv = await op('POST', '/api/v1/admin/venues/layout/parse', {
      format: 'csv',
      text: 'section,row,number,x,y\nA,1,1,0,0\nA,1,,10,0\n',
    });
    expect(csv.status).toBe(400);
    expect(csv.body.error.message).toMatch(/^第 3 行/);
    const empty = await op('POST', '/api/v1/admin/venues', { name: 'x' });
    expect(empty.body.error.code).toBe('VALIDATION_FAILED');
    const json = await op('POST', '/api/v1/admin/venues/layout/parse', {
      format: 'json',
      text: '{"seats": [{"section": "A"}]}',
    });
    expect(json.status).toBe(400);
  });

  it('is closed to staff managers', async () => {
    expect((await staffManager('GET', '/api/v1/admin/venues')).status).toBe(403);
    expect(
      (await staffManager('POST', '/api/v1/admin/venues', { name: 'x', zones: [{ name: 'z', capacity: 1 }] }))
        .status,
    ).toBe(403);
  });
});

describe('shows and sessions', () => {
  let venueId: string;
  let seatIds: string[];
  let showId: string;
  let sessionId: string;

  beforeAll(async () => {
    const v = await op('POST', '/api/v1/admin/venues', {
      name: '工人体育馆',
      blocks: blocks(['A', 2, 10], ['B', 2, 10]),
      zones: [{ name: '站席', capacity: 50 }],
    });
    venueId = v.body.id;
    seatIds = (await op('GET', `/api/v1/admin/venues/${venueId}`)).body.seats.map(
      (s: { id: string }) => s.id,
    );
  });

  it('creates a show with refund rules and edits it, both audited', async () => {
    const r = await op('POST', '/api/v1/admin/shows', {
      title: '周杰伦嘉年华',
      venueId,
      description: '世界巡回演唱会',
      showPurchaseLimit: 6,
      refundRules: [
        { hoursBeforeStart: 24, feePercent: 20 },
        { hoursBeforeStart: 168, feePercent: 0 },
      ],
    });
    expect(r.status).toBe(201);
    showId = r.body.id;
    expect(r.body.showPurchaseLimit).toBe(6);
    // Kept most generous first.
    expect(r.body.refundRules).toEqual([
      { hoursBeforeStart: 168, feePercent: 0 },
      { hoursBeforeStart: 24, feePercent: 20 },
    ]);
    const u = await op('PATCH', `/api/v1/admin/shows/${showId}`, { title: '周杰伦 嘉年华 世界巡回演唱会' });
    expect(u.body.title).toBe('周杰伦 嘉年华 世界巡回演唱会');
    const [entry] = await auditRows(h, 'show.update');
    expect(JSON.parse(entry!.before_json).title).toBe('周杰伦嘉年华');
    const unlimited = await op('PATCH', `/api/v1/admin/shows/${showId}`, { showPurchaseLimit: null });
    expect(unlimited.body.showPurchaseLimit).toBeNull();
    expect((await op('PATCH', `/api/v1/admin/shows/${showId}`, { showPurchaseLimit: 0 })).status).toBe(400);
    expect((await op('POST', '/api/v1/admin/shows', { title: 'x', venueId: '999999' })).status).toBe(400);
    expect((await op('POST', '/api/v1/admin/shows', { title: '', venueId })).body.error.code).toBe(
      'VALIDATION_FAILED',
    );
    // Fans see it in the public list.
    const pub = await h.api.call('GET', `/api/v1/shows/${showId}`);
    expect(pub.body.refundRules).toHaveLength(2);
  });

  it('staff managers may list shows but not change them', async () => {
    expect((await staffManager('GET', '/api/v1/admin/shows')).status).toBe(200);
    expect((await staffManager('PATCH', `/api/v1/admin/shows/${showId}`, { title: 'x' })).status).toBe(403);
  });

  it('creates a session with two seat tiers and a zone tier', async () => {
    const r = await op('POST', `/api/v1/admin/shows/${showId}/sessions`, {
      ...sessionBase(),
      tiers: [
        { name: 'VIP', priceFen: 188_000, seatIds: seatIds.slice(0, 10), color: '#d4380d' },
        { name: '看台', priceFen: 68_000 },
        { name: '站席', priceFen: 48_000, zoneName: '站席' },
      ],
    });
    expect(r.status).toBe(201);
    sessionId = r.body.id;
    expect(r.body.status).toBe('presale');
    expect(r.body.tiers.map((t: { name: string; capacity: number }) => [t.name, t.capacity])).toEqual([
      ['VIP', 10],
      ['看台', 30],
      ['站席', 50],
    ]);
    expect(r.body.capacity).toBe(90);
    expect(Object.keys(r.body.seatTiers)).toHaveLength(40);
    expect((await auditRows(h, 'session.create')).length).toBe(1);
  });

  it('validates sessions: times, tiers, zones and seats', async () => {
    const base = sessionBase();
    const post = (body: object) => op('POST', `/api/v1/admin/shows/${showId}/sessions`, { ...base, ...body });
    expect((await post({ saleStartsAt: future(40), tiers: [{ name: 'a', priceFen: 1 }] })).status).toBe(400);
    expect((await post({ tiers: [] })).status).toBe(400);
    expect(
      (
        await post({
          tiers: [
            { name: 'a', priceFen: 1 },
            { name: 'a', priceFen: 2, seatIds: [seatIds[0]] },
          ],
        })
      ).status,
    ).toBe(400);
    expect(
      (await post({ tiers: [{ name: 'a', priceFen: 1, zoneName: '没有这个区' }] })).body.error.message,
    ).toContain('没有这个区');
    expect(
      (await post({ tiers: [{ name: 'a', priceFen: 1, seatIds: ['999999999'] }] })).body.error.message,
    ).toContain('不属于该场馆');
    expect((await post({ purchaseLimit: 11, tiers: [{ name: 'a', priceFen: 1 }] })).status).toBe(400);
    expect(
      (
        await post({
          startsAt: new Date(Date.now() - 86_400_000).toISOString(),
          saleStartsAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
          tiers: [{ name: 'a', priceFen: 1 }],
        })
      ).status,
    ).toBe(400);
    expect((await post({ priceFen: -1, tiers: [{ name: 'a', priceFen: -1 }] })).status).toBe(400);
  });

  it('edits session fields and tiers before the sale', async () => {
    const u = await op('PATCH', `/api/v1/admin/sessions/${sessionId}`, { purchaseLimit: 2, realName: true });
    expect(u.body).toMatchObject({ purchaseLimit: 2, realName: true });
    // The audit log records the session's row, under its column names, as it always has (the
    // service sees a camelCase record; the repo gives the audit the columns back).
    const [edit] = await auditRows(h, 'session.update');
    const [before, after] = [JSON.parse(edit!.before_json), JSON.parse(edit!.after_json)];
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(Object.keys(after)).toEqual(expect.arrayContaining(['show_id', 'purchase_limit', 'real_name']));
    expect([before.purchase_limit, before.real_name, after.purchase_limit, after.real_name]).toEqual([
      4, 0, 2, 1,
    ]);
    expect(after.show_id).toBe(before.show_id);
    const t = (await op('GET', `/api/v1/admin/sessions/${sessionId}`)).body.tiers;
    const r = await op('PUT', `/api/v1/admin/sessions/${sessionId}/tiers`, {
      tiers: [
        { id: t[0].id, name: 'VIP', priceFen: 199_900, seatIds: seatIds.slice(0, 20) },
        { id: t[1].id, name: '看台', priceFen: 68_000 },
        { id: t[2].id, name: '站席', priceFen: 48_000, zoneName: '站席' },
      ],
    });
    expect(r.status).toBe(200);
    expect(
      r.body.tiers.map((x: { priceFen: number; seatCount: number }) => [x.priceFen, x.seatCount]),
    ).toEqual([
      [199_900, 20],
      [68_000, 20],
      [48_000, 0],
    ]);
    const [entry] = await auditRows(h, 'session.tiers');
    expect(JSON.parse(entry!.before_json)[0].priceFen).toBe(188_000);
    expect(JSON.parse(entry!.after_json)[0].priceFen).toBe(199_900);
    await op('PATCH', `/api/v1/admin/sessions/${sessionId}`, { purchaseLimit: 4, realName: false });
  });

  it('opens the sale: status on sale and the inventory preheated in Redis', async () => {
    expect(await h.env.deps.inventory.isLoaded(sessionId)).toBe(false);
    const r = await op('POST', `/api/v1/admin/sessions/${sessionId}/open`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('on_sale');
    expect(await h.env.deps.inventory.isLoaded(sessionId)).toBe(true);
    expect(await h.env.deps.inventory.availability(sessionId)).toBe(90);
    expect((await auditRows(h, 'session.open')).map((e) => e.entity_id)).toEqual([sessionId]);
    const again = await op('POST', `/api/v1/admin/sessions/${sessionId}/open`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('SESSION_STATE_INVALID');
    // The fan's seat map, as the admin previews it.
    const map = await op('GET', `/api/v1/admin/sessions/${sessionId}/seatmap`);
    expect(map.body.seats).toHaveLength(40);
  });

  it('refuses edits that would break sold tickets, allows the rest while selling', async () => {
    const fan = await h.api.tokenFor(await createUser(h), ['fan']);
    const order = await h.api.call('POST', '/api/v1/orders', {
      token: fan,
      body: { sessionId, seatIds: [seatIds[0]] },
      headers: { 'idempotency-key': 'admin-test-order-1' },
    });
    expect(order.status).toBe(201);
    const t = (await op('GET', `/api/v1/admin/sessions/${sessionId}`)).body.tiers;
    const put = (tiers: object[]) => op('PUT', `/api/v1/admin/sessions/${sessionId}/tiers`, { tiers });
    const zone = { id: t[2].id, name: '站席', priceFen: 48_000, zoneName: '站席' };
    const price = await put([
      { id: t[0].id, name: 'VIP', priceFen: 1, seatIds: seatIds.slice(0, 20) },
      { id: t[1].id, name: '看台', priceFen: 68_000 },
      zone,
    ]);
    expect(price.status).toBe(409);
    expect(price.body.error.code).toBe('EDIT_CONFLICT');
    const moved = await put([
      { id: t[0].id, name: 'VIP', priceFen: 199_900, seatIds: seatIds.slice(1, 20) },
      { id: t[1].id, name: '看台', priceFen: 68_000 },
      zone,
    ]);
    expect(moved.body.error.message).toContain('不能改到其他票档');
    const removed = await put([
      { id: t[0].id, name: 'VIP', priceFen: 199_900, seatIds: seatIds.slice(1, 20) },
      { id: t[1].id, name: '看台', priceFen: 68_000, seatIds: seatIds.slice(20, 40) },
      zone,
    ]);
    expect(removed.body.error.message).toContain('不能停售');
    const deleted = await put([{ id: t[1].id, name: '看台', priceFen: 68_000 }, zone]);
    expect(deleted.body.error.code).toBe('EDIT_CONFLICT');
    expect((await op('PATCH', `/api/v1/admin/sessions/${sessionId}`, { realName: true })).status).toBe(409);
    expect(
      (await op('PATCH', `/api/v1/admin/sessions/${sessionId}`, { saleStartsAt: future(1) })).status,
    ).toBe(409);
    // Allowed: the unsold tier's price, stopping unsold seats. Redis follows (rebuilt).
    const ok = await put([
      { id: t[0].id, name: 'VIP', priceFen: 199_900, seatIds: seatIds.slice(0, 20) },
      { id: t[1].id, name: '看台', priceFen: 58_000, seatIds: seatIds.slice(20, 30) },
      zone,
    ]);
    expect(ok.status).toBe(200);
    expect(ok.body.capacity).toBe(80);
    expect(await h.env.deps.inventory.availability(sessionId)).toBe(79);
    expect(await h.env.deps.inventory.isLoaded(sessionId)).toBe(true);
    const map = await h.api.call('GET', `/api/v1/sessions/${sessionId}/seatmap`);
    expect(map.body.tiers.find((x: { name: string }) => x.name === '看台').priceFen).toBe(58_000);
  });

  it('ends the session and refuses further edits', async () => {
    const r = await op('POST', `/api/v1/admin/sessions/${sessionId}/end`);
    expect(r.body.status).toBe('ended');
    expect((await op('PATCH', `/api/v1/admin/sessions/${sessionId}`, { purchaseLimit: 3 })).status).toBe(409);
    expect((await op('POST', `/api/v1/admin/sessions/${sessionId}/end`)).status).toBe(409);
  });

  it('refuses changing the venue of a show that has sessions', async () => {
    const other = await op('POST', '/api/v1/admin/venues', {
      name: '别处',
      zones: [{ name: 'z', capacity: 1 }],
    });
    const r = await op('PATCH', `/api/v1/admin/shows/${showId}`, { venueId: other.body.id });
    expect(r.status).toBe(409);
    const layout = await op('PUT', `/api/v1/admin/venues/${venueId}/layout`, {
      zones: [{ name: 'z', capacity: 1 }],
    });
    expect(layout.status).toBe(409);
    const free = await op('PUT', `/api/v1/admin/venues/${other.body.id}/layout`, {
      blocks: blocks(['C', 2, 2]),
    });
    expect(free.body.seatCount).toBe(4);
  });
});

describe('dashboard with a waiting room', () => {
  it('shows how many fans wait in the queue', async () => {
    const v = await op('POST', '/api/v1/admin/venues', {
      name: '排队场馆',
      zones: [{ name: '内场', capacity: 100 }],
    });
    const show = await op('POST', '/api/v1/admin/shows', { title: '排队演出', venueId: v.body.id });
    const s = await op('POST', `/api/v1/admin/shows/${show.body.id}/sessions`, {
      startsAt: future(30),
      saleStartsAt: future(1),
      holdMinutes: 15,
      purchaseLimit: 2,
      realName: false,
      queueEnabled: true,
      queueRatePerMin: 600,
      tiers: [{ name: '内场', priceFen: 50_000, zoneName: '内场' }],
    });
    const dash = () => op('GET', `/api/v1/admin/sessions/${s.body.id}/dashboard`).then((r) => r.body);
    expect((await dash()).queue).toEqual({ enabled: true, length: 0 });
    for (let i = 0; i < 3; i++) {
      const fan = await h.api.tokenFor(await createUser(h));
      const j = await h.api.call('POST', `/api/v1/sessions/${s.body.id}/queue/join`, {
        token: fan,
        body: {},
      });
      expect(j.status).toBe(200);
    }
    expect((await dash()).queue).toEqual({ enabled: true, length: 3 });
  });
});

async function createUser(h: AdminHarness): Promise<string> {
  const [res] = await h.env.deps.db.query<import('mysql2').ResultSetHeader>(
    'INSERT INTO users (openid) VALUES (?)',
    [`admin-test-${Math.random()}`],
  );
  return String(res.insertId);
}
