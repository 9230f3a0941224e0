import type { ResultSetHeader } from 'mysql2/promise';
import { createSession } from '../helpers/fixtures';
import { adminHarness, auditRows, type AdminHarness } from './helpers';

let h: AdminHarness;
let op: ReturnType<AdminHarness['as']>;

beforeAll(async () => {
  h = await adminHarness();
  op = h.as(await h.tokenWithRoles(['operator']));
});
afterAll(() => h.close());

async function user(): Promise<string> {
  const [r] = await h.env.deps.db.query<ResultSetHeader>('INSERT INTO users (openid) VALUES (?)', [
    `risk-${Math.random()}`,
  ]);
  return String(r.insertId);
}

describe('blocklist and risk flags', () => {
  it('blocks a user from buying, audited, and unblocks', async () => {
    const s = await createSession(h.env.deps, { seats: 10 });
    const u = await user();
    const token = await h.api.tokenFor(u);
    const buy = (seat: number) =>
      h.api.call('POST', '/api/v1/orders', {
        token,
        body: { sessionId: s.sessionId, seatIds: [s.seatIds[seat]] },
      });
    const added = await op('POST', '/api/v1/admin/risk/blocklist', {
      kind: 'user',
      value: u,
      reason: '批量囤票',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ kind: 'user', value: u, reason: '批量囤票' });
    expect((await buy(0)).body.error.code).toBe('BLOCKED');
    expect(
      (await op('POST', '/api/v1/admin/risk/blocklist', { kind: 'user', value: u })).body.error.message,
    ).toBe('已在黑名单中');
    expect((await op('DELETE', `/api/v1/admin/risk/blocklist/${added.body.id}`)).status).toBe(204);
    expect((await buy(1)).status).toBe(201);
    expect((await auditRows(h, 'risk.block'))[0]!.actor).toMatch(/^user/);
    expect(await auditRows(h, 'risk.unblock')).toHaveLength(1);
  });

  it("keeps an ID number only as the purchase path's keyed hash", async () => {
    const r = await op('POST', '/api/v1/admin/risk/blocklist', {
      kind: 'id',
      value: '11010519491231002x',
      reason: '黄牛',
    });
    expect(r.status).toBe(201);
    const [[row]] = await h.env.deps.db.query<import('mysql2').RowDataPacket[]>(
      'SELECT value FROM blocklist WHERE id = ?',
      [r.body.id],
    );
    expect(row!.value).toBe(h.env.deps.vault.idHash('11010519491231002X'));
    const [[entry]] = await h.env.deps.db.query<import('mysql2').RowDataPacket[]>(
      "SELECT after_json FROM admin_audit_log WHERE action = 'risk.block' AND entity_id = ?",
      [r.body.id],
    );
    expect(entry!.after_json).not.toContain('11010519491231002');
    const list = await op('GET', '/api/v1/admin/risk/blocklist');
    expect(list.body.items.find((e: { id: string }) => e.id === r.body.id).value).toMatch(/^[0-9a-f]{12}…$/);
  });

  it('validates entries and lists flags', async () => {
    expect((await op('POST', '/api/v1/admin/risk/blocklist', { kind: 'user', value: 'abc' })).status).toBe(
      400,
    );
    expect((await op('POST', '/api/v1/admin/risk/blocklist', { kind: 'nope', value: '1' })).status).toBe(400);
    await h.env.deps.db.query(
      "INSERT INTO risk_flags (kind, subject, accounts, first_seen, last_seen) VALUES ('device', 'phone-1', 7, NOW(3), NOW(3))",
    );
    const flags = await op('GET', '/api/v1/admin/risk/flags');
    expect(flags.body.items).toEqual([
      expect.objectContaining({ kind: 'device', subject: 'phone-1', accounts: 7 }),
    ]);
    const sm = h.as(await h.tokenWithRoles(['staff_manager']));
    expect((await sm('GET', '/api/v1/admin/risk/flags')).status).toBe(403);
  });
});
