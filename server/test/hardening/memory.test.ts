import { adminHarness, type AdminHarness } from '../admin/helpers';
import { createSession } from '../helpers/fixtures';

/** Issue 12.6: caches keyed by request input are bounded; the layout cap comes before expansion. */
let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness();
});
afterAll(async () => {
  await h.close();
});

type Sizes = { sessions: { size: number; has(k: string): boolean }; missing?: { size: number } };

it('random session ids neither grow the catalog cache without end nor evict a live session', async () => {
  const real = await createSession(h.env.deps, { seats: 20 });
  const seatmap = await h.api.call('GET', `/api/v1/sessions/${real.sessionId}/seatmap`);
  expect(seatmap.status).toBe(200);
  const catalog = h.env.deps.catalog;
  const n = 11_000;
  for (let i = 0; i < n; i += 500)
    await Promise.all(
      Array.from({ length: 500 }, (_, k) =>
        catalog.session(String(9_000_000_000 + i + k)).catch(() => undefined),
      ),
    );
  const c = catalog as unknown as Sizes;
  expect(c.sessions.size + (c.missing?.size ?? 0)).toBeLessThanOrEqual(10_500);
  expect(c.sessions.has(real.sessionId)).toBe(true);
  const missing = await h.api.call('GET', '/api/v1/sessions/9000000000123/seatmap');
  expect(missing.status).toBe(404);
});

const block = (i: number) => ({ section: `S${i}`, rows: 200, seatsPerRow: 300, originX: i * 4000 });

it('refuses a layout over 60,000 seats before making it', async () => {
  const over = await h.as(h.root)('POST', '/api/v1/admin/venues/layout/generate', {
    blocks: [block(1), block(2), block(3)],
  });
  expect(over.status).toBe(400);
  expect(over.body.error.message).toMatch(/超过上限 60000/);
  // The largest request the schema allows (about 23 million seats if made) is refused at once.
  const t0 = performance.now();
  const bomb = await h.as(h.root)('POST', '/api/v1/admin/venues/layout/generate', {
    blocks: Array.from({ length: 50 }, (_, i) => ({ ...block(i), widenPerRow: 10 })),
  });
  expect(bomb.status).toBe(400);
  expect(performance.now() - t0).toBeLessThan(2_000);
});
