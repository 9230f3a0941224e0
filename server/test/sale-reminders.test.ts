import type { RowDataPacket } from 'mysql2/promise';
import { openSale } from '../src/jobs/session-lifecycle';
import { SaleReminderService } from '../src/sale-reminders/service';
import { consentTo } from './helpers/consent';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

let p: PayEnv;
let presale: SessionFixture;
let selling: SessionFixture;

beforeAll(async () => {
  p = await createPayEnv();
  presale = await createSession(p.deps, { seats: 4, open: false });
  selling = await createSession(p.deps, { seats: 4 });
});
afterAll(() => p.close());

const q = async (sql: string, params: unknown[] = []) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0];
const remind = (showId: string, token?: string) =>
  p.api.call('POST', `/api/v1/shows/${showId}/sale-reminder`, { token });
const del = (showId: string, token?: string) =>
  p.api.call('DELETE', `/api/v1/shows/${showId}/sale-reminder`, { token });
const wantCount = async (showId: string) =>
  (await p.api.call('GET', `/api/v1/shows/${showId}`)).body.wantCount as number;
const mine = async (token: string) =>
  (await p.api.call('GET', '/api/v1/me/sale-reminders', { token })).body.items as any[];

describe('setting and cancelling a 开售提醒', () => {
  it('records one reminder per fan and show, counts it as 想看, lists it and cancels it', async () => {
    const a = await p.login('openid-remind-a');
    const b = await p.login('openid-remind-b');
    expect(await wantCount(presale.showId)).toBe(0);
    const first = await remind(presale.showId, a.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ showId: presale.showId, state: 'waiting', notifiedAt: null });
    expect(first.body.saleStartsAt).toEqual(expect.any(String));
    // a retried tap: the same reminder, not a second one
    expect((await remind(presale.showId, a.token)).body).toEqual(first.body);
    await remind(presale.showId, b.token);
    expect(await wantCount(presale.showId)).toBe(2);
    expect((await mine(a.token)).map((r) => r.showId)).toEqual([presale.showId]);
    expect(await del(presale.showId, b.token)).toMatchObject({ status: 200, body: { removed: true } });
    expect((await del(presale.showId, b.token)).body).toEqual({ removed: false });
    expect(await wantCount(presale.showId)).toBe(1);
    expect(await mine(b.token)).toEqual([]);
  });

  it('refuses a show on sale already, an unknown show and a fan not logged in, changing nothing', async () => {
    const a = await p.login('openid-remind-a');
    const onSale = await remind(selling.showId, a.token);
    expect(onSale.status).toBe(409);
    expect(onSale.body.error.code).toBe('SALE_REMINDER_UNAVAILABLE');
    expect((await remind('999999999', a.token)).status).toBe(404);
    expect((await remind(presale.showId)).status).toBe(401);
    expect((await p.api.call('GET', '/api/v1/me/sale-reminders')).status).toBe(401);
    expect(await wantCount(selling.showId)).toBe(0);
  });
});

describe('the sale-open job', () => {
  it('sends one consented sale_open notice per fan when the sale opens, even run twice at once', async () => {
    const show = await createSession(p.deps, { seats: 4, open: false });
    const yes = await p.login('openid-sale-yes');
    const none = await p.login('openid-sale-none');
    const refused = await p.login('openid-sale-43101');
    await consentTo(p, yes, 'openid-sale-yes', ['sale_open']);
    // an accept the server was told of but WeChat does not know: WeChat answers 43101
    await p.api.call('POST', '/api/v1/me/subscriptions', {
      token: refused.token,
      body: { requestId: 'req-sale-43101', results: { TPL_SALE_OPEN: 'accept' } },
    });
    for (const fan of [yes, none, refused]) expect((await remind(show.showId, fan.token)).status).toBe(200);
    // a fan who changed their mind before the sale: consent or not, nothing is sent
    const gone = await p.login('openid-sale-cancelled');
    await consentTo(p, gone, 'openid-sale-cancelled', ['sale_open']);
    await remind(show.showId, gone.token);
    await del(show.showId, gone.token);
    const job = new SaleReminderService(p.deps.db, p.deps.relay);
    expect(await job.enqueueDue(p.clock.now())).toBe(0); // not on sale yet: nothing
    await openSale(p.deps, show.sessionId, p.clock.now());
    // pages of two: each run reads page after page until none is left
    const run = () => job.enqueueDue(p.clock.now(), { batch: 2 });
    const runs = await Promise.all([run(), run()]);
    expect(runs[0]! + runs[1]!).toBe(3);
    expect(await run()).toBe(0);
    const outbox = await q(
      "SELECT aggregate_id FROM outbox WHERE topic = 'notice.send' AND aggregate_id LIKE ?",
      [`sale-open-${show.showId}-%`],
    );
    expect(outbox).toHaveLength(3);
    const states = () =>
      q("SELECT user_id, status, errcode FROM notices WHERE kind = 'sale_open' AND user_id IN (?)", [
        [yes.userId, none.userId, refused.userId],
      ]);
    const settled = async () => {
      const rows = await states();
      return rows.length === 3 && rows.every((n) => n.status !== 'sending');
    };
    await p.until(settled, 'three notices settled');
    const byUser = Object.fromEntries(
      (await states()).map((n) => [String(n.user_id), [n.status, n.errcode]]),
    );
    expect(byUser).toEqual({
      [yes.userId]: ['sent', null],
      [none.userId]: ['no_consent', null],
      [refused.userId]: ['refused', 43101],
    });
    const sent = p.sim.messages().filter((m) => m.template_id === 'TPL_SALE_OPEN');
    expect(sent).toHaveLength(1); // not to the fan who cancelled either
    expect(sent[0]).toMatchObject({ touser: 'openid-sale-yes', page: `pages/show/index?id=${show.showId}` });
    expect(sent[0]!.data).toMatchObject({ character_string2: { value: show.showId } });
    expect((await mine(yes.token))[0]).toMatchObject({ showId: show.showId, state: 'notified' });
  });
});
