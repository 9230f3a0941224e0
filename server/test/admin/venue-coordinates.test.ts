import { adminHarness, auditRows, blocks, type AdminHarness } from './helpers';

// A venue's place on the map (issue 17 #13): GCJ-02 latitude/longitude entered by the organiser,
// given to the fan's show page for 导航 (wx.openLocation).
let h: AdminHarness;
let op: ReturnType<AdminHarness['as']>;

beforeAll(async () => {
  h = await adminHarness();
  op = h.as(await h.tokenWithRoles(['operator']));
});
afterAll(async () => {
  await h.close();
});

const venue = (extra: Record<string, unknown>) =>
  op('POST', '/api/v1/admin/venues', {
    name: '坐标场馆',
    city: '上海',
    blocks: blocks(['A', 1, 4]),
    ...extra,
  });
const fanVenue = async (venueId: string) => {
  const show = await op('POST', '/api/v1/admin/shows', { title: `坐标演出${venueId}`, venueId });
  return (await h.api.call('GET', `/api/v1/shows/${show.body.id}`)).body.venue;
};

describe('venue coordinates', () => {
  it('stores them on create and edit, audits the edit, and the fan sees them', async () => {
    // 梅赛德斯-奔驰文化中心, as Tencent's map picker gives it (GCJ-02)
    const v = await venue({ latitude: 31.190617, longitude: 121.495853 });
    expect(v.status).toBe(201);
    expect(v.body).toMatchObject({ latitude: 31.190617, longitude: 121.495853 });
    expect(await fanVenue(v.body.id)).toMatchObject({ latitude: 31.190617, longitude: 121.495853 });
    const moved = await op('PATCH', `/api/v1/admin/venues/${v.body.id}`, {
      latitude: 39.9,
      longitude: 116.4,
    });
    expect(moved.body).toMatchObject({ latitude: 39.9, longitude: 116.4 });
    const [entry] = (await auditRows(h, 'venue.update')).filter((e) => e.entity_id === v.body.id);
    expect(JSON.parse(entry!.before_json)).toMatchObject({ latitude: 31.190617 });
    expect(JSON.parse(entry!.after_json)).toMatchObject({ latitude: 39.9 });
    // a name edit keeps them; null clears both
    expect((await op('PATCH', `/api/v1/admin/venues/${v.body.id}`, { name: '改名' })).body.latitude).toBe(
      39.9,
    );
    const cleared = await op('PATCH', `/api/v1/admin/venues/${v.body.id}`, {
      latitude: null,
      longitude: null,
    });
    expect(cleared.body).toMatchObject({ latitude: null, longitude: null });
  });

  it('a venue without them has null, for the organiser and the fan', async () => {
    const v = await venue({});
    expect(v.body).toMatchObject({ latitude: null, longitude: null });
    expect(await fanVenue(v.body.id)).toMatchObject({ latitude: null, longitude: null });
  });

  it('refuses coordinates out of range or without their pair, changing nothing', async () => {
    const v = await venue({ latitude: 30.5, longitude: 114.3 });
    for (const bad of [
      { latitude: 91, longitude: 120 },
      { latitude: -90.5, longitude: 120 },
      { latitude: 30, longitude: 180.1 },
      { latitude: 30 },
      { longitude: 120 },
      { latitude: null, longitude: 120 },
      { latitude: '30', longitude: '120' },
    ]) {
      const r = await op('PATCH', `/api/v1/admin/venues/${v.body.id}`, bad);
      expect([r.status, r.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
      const c = await venue({ name: '坏坐标', ...bad });
      expect(c.status).toBe(400);
    }
    expect((await op('GET', `/api/v1/admin/venues/${v.body.id}`)).body).toMatchObject({
      latitude: 30.5,
      longitude: 114.3,
    });
    const [rows] = await h.env.deps.db.query<any[]>("SELECT COUNT(*) AS n FROM venues WHERE name = '坏坐标'");
    expect(Number(rows[0].n)).toBe(0);
  });
});
