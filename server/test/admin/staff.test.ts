import type { ResultSetHeader } from 'mysql2/promise';
import { isStaffFor } from '../../src/checkin/staff/repo';
import { inviteRef } from '../../src/checkin/staff/service';
import { adminHarness, auditRows, type AdminHarness } from './helpers';

let h: AdminHarness;
let sm: ReturnType<AdminHarness['as']>;
let operator: ReturnType<AdminHarness['as']>;
let showIds: string[];
let users: string[];

async function user(nickname: string): Promise<string> {
  const [r] = await h.env.deps.db.query<ResultSetHeader>(
    'INSERT INTO users (openid, nickname) VALUES (?, ?)',
    [`staff-${nickname}-${Math.random()}`, nickname],
  );
  return String(r.insertId);
}

beforeAll(async () => {
  h = await adminHarness();
  sm = h.as(await h.tokenWithRoles(['staff_manager']));
  operator = h.as(await h.tokenWithRoles(['operator']));
  const v = await operator('POST', '/api/v1/admin/venues', {
    name: '体育场',
    zones: [{ name: '草坪', capacity: 100 }],
  });
  showIds = [];
  for (const title of ['音乐节第一天', '音乐节第二天'])
    showIds.push((await operator('POST', '/api/v1/admin/shows', { title, venueId: v.body.id })).body.id);
  users = [await user('检票员小王'), await user('检票员小李'), await user('检票员小张')];
});
afterAll(() => h.close());

describe('gate staff', () => {
  it('a staff manager binds a WeChat user to shows (the contract route), audited', async () => {
    const r = await sm('POST', '/api/v1/admin/staff', { userId: users[0], showIds: [showIds[0]] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      userId: users[0],
      nickname: '检票员小王',
      shows: [{ id: showIds[0], title: '音乐节第一天' }],
    });
    expect(await isStaffFor(h.env.deps.db, users[0]!, showIds[0]!)).toBe(true);
    expect(await isStaffFor(h.env.deps.db, users[0]!, showIds[1]!)).toBe(false);
    const again = await sm('POST', '/api/v1/admin/staff', { userId: users[0], showIds: showIds });
    expect(again.body.shows).toHaveLength(2);
    const [first, second] = await auditRows(h, 'staff.assign');
    expect(JSON.parse(first!.after_json)).toEqual({ showIds: [showIds[0]] });
    expect(JSON.parse(second!.before_json)).toEqual({ showIds: [showIds[0]] });
    const list = await sm('GET', '/api/v1/admin/staff');
    expect(list.body.items).toHaveLength(1);
  });

  it('validates the user and the shows', async () => {
    expect(
      (await sm('POST', '/api/v1/admin/staff', { userId: '999999', showIds: [showIds[0]] })).body.error
        .message,
    ).toContain('微信用户不存在');
    expect((await sm('POST', '/api/v1/admin/staff', { userId: users[1], showIds: ['999999'] })).status).toBe(
      400,
    );
    expect((await sm('POST', '/api/v1/admin/staff', { userId: users[1], showIds: [] })).status).toBe(400);
    expect((await sm('POST', '/api/v1/admin/staff', { userId: 'abc', showIds: [showIds[0]] })).status).toBe(
      400,
    );
  });

  it('finds WeChat users by id or nickname', async () => {
    const r = await sm('GET', `/api/v1/admin/staff/users?q=${encodeURIComponent('小李')}`);
    expect(r.body.items.map((u: { id: string }) => u.id)).toEqual([users[1]]);
    expect((await sm('GET', `/api/v1/admin/staff/users?q=${users[2]}`)).body.items[0].nickname).toBe(
      '检票员小张',
    );
  });

  it('removes assignments, one show or all', async () => {
    expect((await sm('DELETE', `/api/v1/admin/staff/${users[0]}?showIds=${showIds[1]}`)).status).toBe(204);
    expect(await isStaffFor(h.env.deps.db, users[0]!, showIds[1]!)).toBe(false);
    expect((await sm('DELETE', `/api/v1/admin/staff/${users[0]}`)).status).toBe(204);
    expect((await sm('DELETE', `/api/v1/admin/staff/${users[0]}`)).status).toBe(404);
    expect((await auditRows(h, 'staff.remove')).length).toBe(2);
  });

  it('is for staff managers: operators, fans and staff tokens are refused', async () => {
    expect(
      (await operator('POST', '/api/v1/admin/staff', { userId: users[1], showIds: [showIds[0]] })).status,
    ).toBe(403);
    for (const roles of [['fan'], ['staff']] as const) {
      const t = await h.api.tokenFor(users[1]!, [...roles]);
      expect(
        (await h.as(t)('POST', '/api/v1/admin/staff', { userId: users[1], showIds: [showIds[0]] })).status,
      ).toBe(403);
    }
  });
});

describe('invite codes', () => {
  it('a WeChat user redeems a code and becomes staff; redeeming again is harmless', async () => {
    const inv = await sm('POST', '/api/v1/admin/staff/invites', {
      showIds,
      maxUses: 2,
      expiresInHours: 24,
      note: '南门',
    });
    expect(inv.status).toBe(201);
    expect(inv.body.code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
    const fan = await h.api.tokenFor(users[1]!);
    const r = await h.api.call('POST', '/api/v1/staff/invites/redeem', {
      token: fan,
      body: { code: inv.body.code.toLowerCase() },
    });
    expect(r.status).toBe(200);
    expect(r.body.shows.map((s: { id: string }) => s.id)).toEqual(showIds);
    expect(
      (
        await h.api.call('POST', '/api/v1/staff/invites/redeem', {
          token: fan,
          body: { code: inv.body.code },
        })
      ).status,
    ).toBe(200);
    expect((await h.api.call('GET', '/api/v1/staff/me', { token: fan })).body.shows).toHaveLength(2);
    const list = await sm('GET', '/api/v1/admin/staff/invites');
    expect(list.body.items[0]).toMatchObject({
      code: inv.body.code,
      uses: 1,
      maxUses: 2,
      note: '南门',
      revoked: false,
    });
    expect((await auditRows(h, 'staff.redeem')).map((e) => e.actor)).toEqual([`user:${users[1]}`]);
  });

  it('refuses used-up, expired, revoked and unknown codes, and admin tokens', async () => {
    const inv = (
      await sm('POST', '/api/v1/admin/staff/invites', {
        showIds: [showIds[0]],
        maxUses: 1,
        expiresInHours: 1,
      })
    ).body;
    const redeem = async (userId: string, code: string) =>
      h.api.call('POST', '/api/v1/staff/invites/redeem', {
        token: await h.api.tokenFor(userId),
        body: { code },
      });
    expect((await redeem(users[2]!, inv.code)).status).toBe(200);
    expect((await redeem(users[0]!, inv.code)).body.error.message).toBe('邀请码已被用完');
    const later = (
      await sm('POST', '/api/v1/admin/staff/invites', { showIds: [showIds[0]], expiresInHours: 1 })
    ).body;
    h.env.clock.advance(3_600_000);
    expect((await redeem(users[0]!, later.code)).body.error.message).toBe('邀请码已过期');
    h.env.clock.advance(-3_600_000);
    const revoked = (await sm('POST', '/api/v1/admin/staff/invites', { showIds: [showIds[0]] })).body;
    expect((await sm('POST', `/api/v1/admin/staff/invites/${revoked.code}/revoke`)).body.revoked).toBe(true);
    expect((await redeem(users[0]!, revoked.code)).body.error.message).toBe('邀请码无效');
    expect((await redeem(users[0]!, 'ZZZZZZZZZZ')).body.error.message).toBe('邀请码无效');
    expect((await redeem(users[0]!, 'bad')).status).toBe(400);
    const adminToken = await h.login();
    const r = await h.api.call('POST', '/api/v1/staff/invites/redeem', {
      token: adminToken,
      body: { code: inv.code },
    });
    expect(r.status).toBe(401); // an admin-page token is no WeChat login
    expect(
      (await h.api.call('POST', '/api/v1/staff/invites/redeem', { body: { code: inv.code } })).status,
    ).toBe(401);
    expect(
      (await sm('POST', '/api/v1/admin/staff/invites', { showIds: [showIds[0]], maxUses: 0 })).status,
    ).toBe(400);
  });

  it('the audit log names invites by reference, never by their code (old entries too)', async () => {
    const inv = (await sm('POST', '/api/v1/admin/staff/invites', { showIds: [showIds[1]], maxUses: 5 })).body;
    expect(inv.ref).toMatch(/^inv_[0-9a-f]{10}$/);
    await h.api.call('POST', '/api/v1/staff/invites/redeem', {
      token: await h.api.tokenFor(users[2]!),
      body: { code: inv.code },
    });
    await sm('POST', `/api/v1/admin/staff/invites/${inv.code}/revoke`);
    // An entry written before the fix, as the old code wrote it: migration 0015 rewrites it.
    const db = h.env.deps.db;
    await db.query(
      `INSERT INTO admin_audit_log (admin_id, actor, action, entity_type, entity_id, after_json, ip, created_at)
       VALUES (NULL, 'user:1', 'staff.redeem', 'staff', '1', ?, '', NOW(3)), (NULL, 'sm', 'staff.invite', 'invite', 'OLDCODE234', '{}', '', NOW(3))`,
      [JSON.stringify({ code: 'OLDCODE234', showIds: [] })],
    );
    const { readFileSync } = await import('node:fs');
    const migration = readFileSync(`${__dirname}/../../migrations/0015_gate_audit_refs.up.sql`, 'utf8');
    for (const q of migration.replace(/--.*$/gm, '').split(';')) if (q.trim()) await db.query(q);
    const audit = await operator('GET', '/api/v1/admin/audit?pageSize=100');
    const text = JSON.stringify(audit.body.items);
    expect(text).toContain(inv.ref);
    expect(text).not.toContain(inv.code);
    expect(text).not.toContain('OLDCODE234');
    expect(text).toContain(inviteRef('OLDCODE234'));
    const [assigned] = await db.query<import('mysql2').RowDataPacket[]>(
      'SELECT created_by FROM staff_assignments WHERE user_id = ? AND show_id = ?',
      [users[2], showIds[1]],
    );
    expect(assigned[0]!.created_by).toBe(`invite:${inv.ref}`);
  });

  it('counts admissions per gate and lists offline conflicts', async () => {
    const db = h.env.deps.db;
    const gates = () => sm('GET', `/api/v1/admin/staff/gates?showId=${showIds[0]}`).then((r) => r.body);
    expect(await gates()).toEqual({ available: true, gates: [], conflicts: [] });
    const session = await operator('POST', `/api/v1/admin/shows/${showIds[0]}/sessions`, {
      startsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      saleStartsAt: new Date(Date.now() + 86_400_000).toISOString(),
      holdMinutes: 15,
      purchaseLimit: 4,
      realName: false,
      queueEnabled: false,
      tiers: [{ name: '草坪', priceFen: 38_000, zoneName: '草坪' }],
    });
    const sid = session.body.id;
    const now = new Date();
    for (let i = 1; i <= 3; i++) {
      await db.query(
        `INSERT INTO tickets (ticket_no, order_id, order_item_id, user_id, session_id, zone_id, slot_no, secret)
         VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
        [`T${i}`.padEnd(20, 'X'), 100 + i, 100 + i, users[0], sid, i, 's'.repeat(43)],
      );
    }
    const [tickets] = await db.query<import('mysql2').RowDataPacket[]>(
      'SELECT id FROM tickets WHERE session_id = ? ORDER BY id',
      [sid],
    );
    const admit = (ticket: string, gate: string, kind = 'qr') =>
      db.query(
        "INSERT INTO checkins (ticket_id, session_id, gate, staff_user_id, mode, kind, scanned_at, recorded_at) VALUES (?, ?, ?, ?, 'online', ?, ?, ?)",
        [ticket, sid, gate, users[1], kind, now, now],
      );
    await admit(tickets[0]!.id, '南门', 'manual_id');
    await admit(tickets[1]!.id, '南门');
    await admit(tickets[2]!.id, '北门');
    await db.query(
      `INSERT INTO checkin_conflicts (ticket_id, session_id, kind, gate, staff_user_id, scanned_at, first_gate, first_at, created_at)
       VALUES (?, ?, 'already_used', '北门', ?, ?, '南门', ?, ?)`,
      [tickets[0]!.id, sid, users[1], now, now, now],
    );
    const r = await gates();
    expect(r.gates).toEqual([
      { gate: '北门', admitted: 1, manual: 0 },
      { gate: '南门', admitted: 2, manual: 1 },
    ]);
    expect(r.conflicts).toEqual([
      expect.objectContaining({ ticketNo: 'T1XXXXXXXXXXXXXXXXXX', gate: '北门', firstGate: '南门' }),
    ]);
  });
});
