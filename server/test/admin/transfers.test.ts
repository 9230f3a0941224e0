import { createSession } from '../helpers/fixtures';
import { adminHarness, auditRows, type AdminHarness } from './helpers';

/** The organiser's 转赠 rules per show and an order's transfers, through the admin API. */
let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness();
});
afterAll(() => h.close());

it('reads the defaults, refuses a bad body without a change, saves and audits the rules', async () => {
  const s = await createSession(h.env.deps, { seats: 4 });
  const call = h.as(await h.tokenWithRoles(['operator']));
  const path = `/api/v1/admin/shows/${s.showId}/transfer-settings`;
  expect((await call('GET', path)).body).toEqual({ enabled: false, cutoffMinutes: 120, onceOnly: true });

  const bad = await call('PUT', path, { enabled: true, cutoffMinutes: -5, onceOnly: true });
  expect(bad.status).toBe(400);
  expect((await call('PUT', path, { enabled: true })).status).toBe(400);
  expect((await call('GET', path)).body.enabled).toBe(false);

  const saved = await call('PUT', path, { enabled: true, cutoffMinutes: 240, onceOnly: false });
  expect(saved.status).toBe(200);
  expect((await call('GET', path)).body).toEqual({ enabled: true, cutoffMinutes: 240, onceOnly: false });
  const audit = (await auditRows(h, 'show.transfer_settings')).filter(
    (r) => r.entity_id === String(s.showId),
  );
  expect(audit).toHaveLength(1);

  expect((await call('PUT', '/api/v1/admin/shows/999999999/transfer-settings', saved.body)).status).toBe(404);
  expect((await call('GET', '/api/v1/admin/orders/123456789/transfers')).status).toBe(404);
  // A gate manager may not change them.
  const staff = h.as(await h.tokenWithRoles(['staff_manager']));
  expect((await staff('PUT', path, saved.body)).status).toBe(403);
});
