import pino from 'pino';
import { closeDeps, createDeps, type AppDeps } from '../../src/wiring';
import { adminHarness, type AdminHarness } from '../admin/helpers';
import { createSession, createUsers } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/http';
import type { TestEnv } from '../helpers/env';

/** How soon an admin edit on one instance must be seen by the others. */
const BOUND_MS = 1_000;

let h: AdminHarness; // instance A: the admin edits here
let b: AppDeps; // instance B: same MySQL, Redis and config, its own process state and caches
let bApi: TestServer;

beforeAll(async () => {
  // Long cache lifetimes: without cross-instance invalidation B would serve stale data for minutes.
  h = await adminHarness({ CATALOG_CACHE_MS: '600000', SEAT_STATES_CACHE_MS: '600000' });
  b = await createDeps(h.env.config, { clock: h.env.clock, log: pino({ level: 'silent' }) });
  bApi = await startTestServer({ ...h.env, deps: b } as TestEnv);
});
afterAll(async () => {
  await bApi.close();
  await closeDeps(b);
  await h.close();
});

async function within<T>(ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (ok(await read())) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('cache invalidation across instances', () => {
  it("an admin's session edit on A reaches B's catalog cache within the bound", async () => {
    const s = await createSession(h.env.deps, { seats: 10, purchaseLimit: 4 });
    const [fan] = await createUsers(h.env.deps, 1, 'inv');
    // B has the session cached (a fan opened the seat map there).
    expect((await bApi.call('GET', `/api/v1/sessions/${s.sessionId}/seatmap`)).status).toBe(200);
    expect((await b.catalog.session(s.sessionId))!.purchaseLimit).toBe(4);

    const op = h.as(h.root);
    expect((await op('PATCH', `/api/v1/admin/sessions/${s.sessionId}`, { purchaseLimit: 1 })).status).toBe(
      200,
    );
    await within(
      BOUND_MS,
      () => b.catalog.session(s.sessionId),
      (c) => c!.purchaseLimit === 1,
    );

    // And B's purchase path enforces the new limit.
    const token = await bApi.tokenFor(fan!);
    const two = await bApi.call('POST', '/api/v1/orders', {
      token,
      body: { sessionId: s.sessionId, seatIds: s.seatIds.slice(0, 2) },
    });
    expect(two.body.error.code).toBe('LIMIT_EXCEEDED');
  });

  it('a blocklist entry added on A stops a purchase on B within the bound', async () => {
    const s = await createSession(h.env.deps, { seats: 10 });
    const [fan] = await createUsers(h.env.deps, 1, 'blk');
    const token = await bApi.tokenFor(fan!);
    const buy = (i: number) =>
      bApi.call('POST', '/api/v1/orders', {
        token,
        body: { sessionId: s.sessionId, seatIds: [s.seatIds[i]] },
      });
    expect((await buy(0)).status).toBe(201); // B has loaded the blocklist (without this fan)
    const op = h.as(h.root);
    expect((await op('POST', '/api/v1/admin/risk/blocklist', { kind: 'user', value: fan })).status).toBe(201);
    let i = 1;
    await within(
      BOUND_MS,
      () => buy(i++),
      (r) => r.body?.error?.code === 'BLOCKED',
    );
  });
});
