import type { RowDataPacket } from 'mysql2/promise';
import { expireDueOrders } from '../src/orders/expiry';
import { WITHIN_LIMITS } from '../src/risk/limits';
import { createSession, createUsers, purchase, type SessionFixture } from './helpers/fixtures';
import { serverForFile } from './helpers/http';

/** Real-name tickets, rate limits and the anti-scalper rules. */
const t = serverForFile({
  RATE_PURCHASE_USER: '5/60',
  RATE_LOGIN_IP: '3/60',
  EXPIRED_HOLDS_MAX: '2',
  ACCOUNTS_PER_DEVICE_MAX: '2',
  RATE_PAY_USER: '3/60',
  RATE_QUEUE_USER: '3/60',
});

const ID_A = '11010519491231002X';
const ID_B = '440524188001010014';

async function realNameSession(seats = 10): Promise<SessionFixture> {
  const s = await createSession(t.env.deps, { seats });
  await t.env.deps.db.query('UPDATE show_sessions SET real_name = 1 WHERE id = ?', [s.sessionId]);
  t.env.deps.catalog.invalidate(s.sessionId);
  return s;
}

describe('real-name sessions', () => {
  it('one ID across two accounts at the same instant gets one ticket', async () => {
    const s = await realNameSession();
    const [a, b] = await createUsers(t.env.deps, 2);
    const attendee = { name: '张三', idType: 'id_card' as const, idNumber: ID_A };
    const results = await Promise.allSettled(
      [a!, b!].map((u, i) =>
        purchase(t.env, u, { sessionId: s.sessionId, seatIds: [s.seatIds[i]!], attendees: [attendee] }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.code).toBe(
      'ID_TAKEN',
    );
  });

  it('stores ID numbers encrypted and shows them masked; MySQL refuses the same ID even when Redis is wrong', async () => {
    const s = await realNameSession();
    const [a, b] = await createUsers(t.env.deps, 2);
    await purchase(t.env, a!, {
      sessionId: s.sessionId,
      seatIds: [s.seatIds[0]!],
      attendees: [{ name: '李四', idType: 'id_card', idNumber: ID_B }],
    });
    const [rows] = await t.env.deps.db.query<RowDataPacket[]>(
      'SELECT * FROM order_attendees oa JOIN orders o ON o.id = oa.order_id WHERE o.session_id = ?',
      [s.sessionId],
    );
    expect(JSON.stringify(rows)).not.toContain(ID_B);
    expect(JSON.stringify(rows)).not.toContain('李四');
    expect(rows[0]).toMatchObject({ id_masked: '440***********0014', name_masked: '李*' });
    expect(t.env.deps.vault.decrypt(rows[0]!.id_number_enc)).toBe(ID_B);
    await t.env.deps.redis.del(t.env.deps.keys.session(s.sessionId).ids); // Redis forgets the claim
    await expect(
      purchase(t.env, b!, {
        sessionId: s.sessionId,
        seatIds: [s.seatIds[1]!],
        attendees: [{ name: '李四', idType: 'id_card', idNumber: ID_B }],
      }),
    ).rejects.toMatchObject({ code: 'ID_TAKEN' });
  });

  it('refuses a bad checksum, a missing attendee and one ID twice in an order', async () => {
    const s = await realNameSession();
    const token = await t.api.tokenFor((await createUsers(t.env.deps, 1))[0]!);
    const post = (body: object) =>
      t.api.call('POST', '/api/v1/orders', { token, body: { sessionId: s.sessionId, ...body } });
    expect(
      (
        await post({
          seatIds: [s.seatIds[0]],
          attendees: [{ name: '王五', idType: 'id_card', idNumber: '110105194912310021' }],
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await post({
          seatIds: [s.seatIds[0], s.seatIds[1]],
          attendees: [{ name: '王五', idType: 'id_card', idNumber: ID_A }],
        })
      ).status,
    ).toBe(400);
    const twice = [
      { name: '王五', idType: 'id_card', idNumber: ID_A },
      { name: '赵六', idType: 'id_card', idNumber: ID_A },
    ];
    expect((await post({ seatIds: [s.seatIds[0], s.seatIds[1]], attendees: twice })).status).toBe(400);
  });

  it('buyers keep a list of frequent attendees, shown only to them', async () => {
    const [a, b] = await createUsers(t.env.deps, 2);
    const ta = await t.api.tokenFor(a!);
    const added = await t.api.call('POST', '/api/v1/me/attendees', {
      token: ta,
      body: { name: '张三', idType: 'id_card', idNumber: ID_A },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      name: '张三',
      idNumber: ID_A,
      idMasked: '110***********002X',
      nameMasked: '张*',
    });
    expect(
      (
        await t.api.call('POST', '/api/v1/me/attendees', {
          token: ta,
          body: { name: '张三', idType: 'id_card', idNumber: ID_A },
        })
      ).status,
    ).toBe(400);
    expect((await t.api.call('GET', '/api/v1/me/attendees', { token: ta })).body.items).toHaveLength(1);
    const tb = await t.api.tokenFor(b!);
    expect((await t.api.call('GET', '/api/v1/me/attendees', { token: tb })).body.items).toHaveLength(0);
    expect((await t.api.call('DELETE', `/api/v1/me/attendees/${added.body.id}`, { token: tb })).status).toBe(
      404,
    );
    expect((await t.api.call('DELETE', `/api/v1/me/attendees/${added.body.id}`, { token: ta })).status).toBe(
      204,
    );
  });
});

describe('rate limits', () => {
  it('purchases per user answer 429 with Retry-After', async () => {
    const s = await createSession(t.env.deps, { seats: 20, purchaseLimit: 10 });
    const token = await t.api.tokenFor((await createUsers(t.env.deps, 1))[0]!);
    const answers = [];
    for (let i = 0; i < 7; i++)
      answers.push(
        await t.api.call('POST', '/api/v1/orders', {
          token,
          body: { sessionId: s.sessionId, seatIds: [s.seatIds[i]] },
        }),
      );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect(answers[5]!.body.error.code).toBe('RATE_LIMITED');
    expect(Number(answers[5]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('joins of a waiting room per user answer 429 with Retry-After, counted per session in the join script', async () => {
    const s = await createSession(t.env.deps, { seats: 5 });
    await t.env.deps.db.query('UPDATE show_sessions SET queue_enabled = 1 WHERE id = ?', [s.sessionId]);
    t.env.deps.catalog.invalidate(s.sessionId);
    const [a, b] = await createUsers(t.env.deps, 2);
    const join = async (userId: string) =>
      t.api.call('POST', `/api/v1/sessions/${s.sessionId}/queue/join`, {
        token: await t.api.tokenFor(userId),
        body: {},
      });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await join(a!));
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[3]!.body.error.code).toBe('RATE_LIMITED');
    expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The session's counter is shared by every instance: joins another instance counted for b
    // (written here as the script writes them) use up b's rate on this one too.
    const counter = t.env.deps.keys.session(s.sessionId).joinRate('u', b!);
    expect(await t.env.deps.redis.get(t.env.deps.keys.session(s.sessionId).joinRate('u', a!))).toBe('3');
    await t.env.deps.redis.set(counter, '3', 'PX', 60_000);
    const other = await join(b!);
    expect(other.status).toBe(429);
    expect(other.body.error.code).toBe('RATE_LIMITED');
  });

  it('logins per address answer 429', async () => {
    const codes = [];
    for (let i = 0; i < 5; i++)
      codes.push((await t.api.call('POST', '/api/v1/auth/wx-login', { body: { code: `nope-${i}` } })).status);
    expect(codes.slice(3)).toEqual([429, 429]);
  });
});

describe('anti-scalper rules', () => {
  it('a per-user limit across the whole show, as well as per session', async () => {
    const s1 = await createSession(t.env.deps, { seats: 10 });
    await t.env.deps.db.query('UPDATE shows SET show_purchase_limit = 3 WHERE id = ?', [s1.showId]);
    t.env.deps.catalog.invalidate(s1.sessionId);
    const { insertSession } = await import('../src/catalog/admin-repo');
    const { openSale } = await import('../src/jobs/session-lifecycle');
    const s2 = await insertSession(t.env.deps.db, {
      showId: s1.showId,
      startsAt: new Date(t.env.clock.now().getTime() + 40 * 86_400_000),
      saleStartsAt: t.env.clock.now(),
      tiers: [{ name: '看台', priceFen: 100 }],
    });
    await openSale(t.env.deps, s2, t.env.clock.now());
    const [u] = await createUsers(t.env.deps, 1);
    const cat2 = (await t.env.deps.catalog.requireSession(s2))!;
    await purchase(t.env, u!, { sessionId: s1.sessionId, seatIds: s1.seatIds.slice(0, 2) });
    await expect(
      purchase(t.env, u!, { sessionId: s2, seatIds: [...cat2.seats.keys()].slice(0, 2) }),
    ).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: '超出本演出每人限购数量',
    });
    await purchase(t.env, u!, { sessionId: s2, seatIds: [...cat2.seats.keys()].slice(0, 1) });
  });

  it('letting holds expire again and again earns a cooldown; paying ends the streak', async () => {
    const s = await createSession(t.env.deps, { seats: 10, holdMinutes: 1 });
    const [u] = await createUsers(t.env.deps, 1);
    const expiry = {
      db: t.env.deps.db,
      orders: t.env.deps.orders,
      inventory: t.env.deps.inventory,
      log: t.env.deps.log,
      orphanGraceMs: 60_000,
    };
    for (let i = 0; i < 2; i++) {
      await purchase(t.env, u!, { sessionId: s.sessionId, seatIds: [s.seatIds[i]!] });
      t.env.clock.advance(61_000);
      await expireDueOrders(expiry, t.env.clock.now());
    }
    await expect(
      purchase(t.env, u!, { sessionId: s.sessionId, seatIds: [s.seatIds[5]!] }),
    ).rejects.toMatchObject({ code: 'HOLD_COOLDOWN' });
    await t.env.deps.risk.onPaid([u!]);
    await purchase(t.env, u!, { sessionId: s.sessionId, seatIds: [s.seatIds[5]!] });
  });

  it('holding and cancelling again and again earns the same cooldown', async () => {
    const s = await createSession(t.env.deps, { seats: 10 });
    const [u] = await createUsers(t.env.deps, 1);
    for (let i = 0; i < 2; i++) {
      const o = await purchase(t.env, u!, { sessionId: s.sessionId, seatIds: [s.seatIds[i]!] });
      await t.env.deps.orders.cancel(u!, o.orderNo, t.env.clock.now());
    }
    await expect(
      purchase(t.env, u!, { sessionId: s.sessionId, seatIds: [s.seatIds[5]!] }),
    ).rejects.toMatchObject({ code: 'HOLD_COOLDOWN' });
  });

  it('limits paying and cancelling (each a signed WeChat call) per user', async () => {
    const s = await createSession(t.env.deps, { seats: 10 });
    const [u] = await createUsers(t.env.deps, 1);
    const o = await purchase(t.env, u!, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] });
    const token = await t.api.tokenFor(u!);
    const call = (what: 'pay' | 'cancel') =>
      t.api.call('POST', `/api/v1/orders/${o.orderNo}/${what}`, { token });
    expect((await call('pay')).status).not.toBe(429);
    expect((await call('cancel')).status).toBe(200);
    expect((await call('cancel')).status).toBe(200); // answered again
    const limited = await call('pay');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect((await call('cancel')).status).toBe(429);
  });

  it('a poll within its limits with the blocklist fresh settles at once; the blocked are refused', async () => {
    const [u, b] = await createUsers(t.env.deps, 2);
    const risk = t.env.deps.risk;
    const client = { ip: '10.1.2.3', device: 'dev-fresh-1' };
    const now = t.env.clock.now().getTime();
    await risk.guardPoll(u!, client, now); // reads the blocklist
    // Nothing allocated for the crowd's most frequent check: the one settled promise.
    expect(risk.guardPoll(u!, client, now)).toBe(WITHIN_LIMITS);
    await t.env.deps.db.query("INSERT INTO blocklist (kind, value, reason) VALUES ('user', ?, 'test')", [b]);
    risk.invalidateBlocklist();
    await expect(risk.guardPoll(b!, client, now)).rejects.toMatchObject({ code: 'BLOCKED' });
    await expect(risk.joinRates(b!, client, now)).rejects.toMatchObject({ code: 'BLOCKED' });
    expect(risk.guardPoll(u!, client, now)).toBe(WITHIN_LIMITS);
  });

  it('the blocklist refuses a user, a device or an ID with a clear code', async () => {
    const s = await realNameSession();
    const [u, v] = await createUsers(t.env.deps, 2);
    await t.env.deps.db.query(
      "INSERT INTO blocklist (kind, value, reason) VALUES ('user', ?, 'test'), ('device', 'dev-blocked-1', 'test'), ('id', ?, 'test')",
      [u, t.env.deps.vault.idHash(ID_B)],
    );
    t.env.deps.risk.invalidateBlocklist();
    const tu = await t.api.tokenFor(u!);
    const tv = await t.api.tokenFor(v!);
    const body = (id: string) => ({
      sessionId: s.sessionId,
      seatIds: [s.seatIds[3]],
      attendees: [{ name: '孙七', idType: 'id_card', idNumber: id }],
    });
    const blocked = await t.api.call('POST', '/api/v1/orders', { token: tu, body: body(ID_A) });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toMatchObject({
      code: 'BLOCKED',
      message: '账号存在异常，暂不能购票，请联系客服',
    });
    expect(
      (
        await t.api.call('POST', '/api/v1/orders', {
          token: tv,
          body: body(ID_A),
          headers: { 'x-device-id': 'dev-blocked-1' },
        })
      ).body.error.code,
    ).toBe('BLOCKED');
    expect(
      (await t.api.call('POST', '/api/v1/orders', { token: tv, body: body(ID_B) })).body.error.code,
    ).toBe('BLOCKED');
    expect((await t.api.call('POST', '/api/v1/orders', { token: tv, body: body(ID_A) })).status).toBe(201);
  });

  it('flags a device behind many accounts', async () => {
    const users = await createUsers(t.env.deps, 4);
    for (const u of users)
      await t.env.deps.risk.noteAccount(u, { ip: '10.0.0.9', device: 'shared-phone-1' }, t.env.clock.now());
    const [rows] = await t.env.deps.db.query<RowDataPacket[]>(
      "SELECT accounts FROM risk_flags WHERE kind = 'device' AND subject = 'shared-phone-1'",
    );
    expect(rows[0]!.accounts).toBe(4);
  });
});
