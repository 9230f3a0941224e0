import { SHOW_CATEGORIES } from '@showtix/shared-types';
import { adminHarness, auditRows, blocks, type AdminHarness } from './helpers';

// A show's category (issue 17 #13): set by the organiser, returned and filtered by the fan's list.
let h: AdminHarness;
let op: ReturnType<AdminHarness['as']>;
let venueId: string;

const fanList = (query = '') => h.api.call('GET', `/api/v1/shows${query}`);
const titlesOf = (body: { items: { title: string }[] }) => body.items.map((s) => s.title).sort();

beforeAll(async () => {
  h = await adminHarness();
  op = h.as(await h.tokenWithRoles(['operator']));
  const v = await op('POST', '/api/v1/admin/venues', {
    name: '分类场馆',
    city: '杭州',
    blocks: blocks(['A', 2, 5]),
  });
  venueId = v.body.id;
});
afterAll(async () => {
  await h.close();
});

describe('show categories', () => {
  it('stores the category on create, defaults to other, and audits a change', async () => {
    const concert = await op('POST', '/api/v1/admin/shows', {
      title: '分类·演唱会',
      venueId,
      category: 'concert',
    });
    expect(concert.status).toBe(201);
    expect(concert.body.category).toBe('concert');
    const plain = await op('POST', '/api/v1/admin/shows', { title: '分类·未选', venueId });
    expect(plain.body.category).toBe('other');

    const edited = await op('PATCH', `/api/v1/admin/shows/${plain.body.id}`, { category: 'comedy' });
    expect(edited.status).toBe(200);
    expect(edited.body.category).toBe('comedy');
    const [entry] = (await auditRows(h, 'show.update')).filter((e) => e.entity_id === plain.body.id);
    expect(JSON.parse(entry!.before_json).category).toBe('other');
    expect(JSON.parse(entry!.after_json).category).toBe('comedy');
    const list = await op('GET', '/api/v1/admin/shows');
    expect(list.body.items.find((s: { id: string }) => s.id === plain.body.id).category).toBe('comedy');
  });

  it('the fan list returns each show with its category and filters by ?category=', async () => {
    await op('POST', '/api/v1/admin/shows', { title: '分类·脱口秀之夜', venueId, category: 'comedy' });
    const all = await fanList();
    expect(all.status).toBe(200);
    for (const s of all.body.items) expect(SHOW_CATEGORIES).toContain(s.category);

    const comedy = await fanList('?category=comedy');
    expect(comedy.status).toBe(200);
    expect(titlesOf(comedy.body)).toEqual(['分类·未选', '分类·脱口秀之夜']);
    expect(comedy.body.items.every((s: { category: string }) => s.category === 'comedy')).toBe(true);
    expect(titlesOf((await fanList('?category=concert')).body)).toEqual(['分类·演唱会']);
    // A category no show has yet: an empty list, not an error.
    expect((await fanList('?category=kids')).body).toEqual({ items: [] });
  });

  it('refuses a category outside the fixed set with 400 VALIDATION_FAILED and changes nothing', async () => {
    for (const q of [
      '?category=jazz',
      '?category=',
      '?category=CONCERT',
      '?category=comedy&category=concert',
    ]) {
      const r = await fanList(q);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_FAILED');
    }
    const bad = await op('POST', '/api/v1/admin/shows', { title: '分类·坏', venueId, category: 'jazz' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const [rows] = await h.env.deps.db.query<any[]>(
      "SELECT COUNT(*) AS n FROM shows WHERE title = '分类·坏'",
    );
    expect(Number(rows[0].n)).toBe(0);

    const show = (await op('GET', '/api/v1/admin/shows')).body.items.find(
      (s: { title: string }) => s.title === '分类·演唱会',
    );
    const patch = await op('PATCH', `/api/v1/admin/shows/${show.id}`, { category: 'jazz' });
    expect(patch.status).toBe(400);
    expect(patch.body.error.code).toBe('VALIDATION_FAILED');
    expect((await op('GET', `/api/v1/admin/shows/${show.id}`)).body.category).toBe('concert');
  });
});
