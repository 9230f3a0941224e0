import type { RowDataPacket } from 'mysql2/promise';
import { SIM_TEMPLATES } from './helpers/config';
import pino from 'pino';
import { sendNotice, TransientNoticeError } from '../src/notices/consumer';
import { NoticeFirstSteps } from '../src/notices/first-step';
import { enqueueReminder, enqueueReminders } from '../src/jobs/reminders';
import { noticeProblems } from '../src/notices/repo';
import { consentTo } from './helpers/consent';
import { countedPool } from './helpers/counted-pool';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

let p: PayEnv;
let s: SessionFixture;

beforeAll(async () => {
  p = await createPayEnv();
  s = await createSession(p.deps, { seats: 40 });
});
afterAll(() => p.close());

const q = async (sql: string, params: unknown[] = []) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0];
const noticesOf = (orderNo: string) =>
  q(
    `SELECT n.template, n.kind, n.status, n.errcode, n.template_id FROM notices n JOIN orders o ON o.id = n.order_id
      WHERE o.order_no = ? ORDER BY n.template`,
    [orderNo],
  );
const remaining = async (userId: string, kind: 'paid' | 'ticketed' | 'refund' | 'reminder') =>
  Number(
    (
      await q('SELECT remaining FROM notice_consents WHERE user_id = ? AND template_id = ?', [
        userId,
        p.config.wechat.templates[kind],
      ])
    )[0]?.remaining ?? 0,
  );
const messagesFor = (orderNo: string) => p.sim.messages().filter((m) => JSON.stringify(m).includes(orderNo));
let seat = 0;

/** A fan's order, paid at the simulator; resolves once its tickets are issued. */
async function buyAndPay(openid: string, kinds: Parameters<typeof consentTo>[3] = []) {
  const fan = await p.login(openid);
  if (kinds.length) await consentTo(p, fan, openid, kinds);
  const o = await p.orderAndPrepay(openid, { sessionId: s.sessionId, seatIds: [s.seatIds[seat++]] });
  p.sim.pay(o.payParams);
  await p.until(
    async () => (await q('SELECT status FROM orders WHERE order_no = ?', [o.orderNo]))[0]?.status === 3,
    'tickets',
  );
  return { ...o, fan };
}

describe('templates and consent', () => {
  it('serves one template id per notice kind (configuration, simulator defaults in tests)', async () => {
    const r = await p.api.call('GET', '/api/v1/notices/templates');
    expect(r.status).toBe(200);
    expect(r.body.templates).toEqual(SIM_TEMPLATES);
  });

  it('counts one send per accept, once per request id; refuses template ids that are not ours', async () => {
    const fan = await p.login('openid-consent');
    const post = (body: unknown) =>
      p.api.call('POST', '/api/v1/me/subscriptions', { token: fan.token, body });
    const answers = { TPL_PAID: 'accept', TPL_TICKETED: 'reject', TPL_REFUND: 'accept' };
    const first = await post({ requestId: 'req-consent-1', results: answers });
    expect(first.status).toBe(200);
    const left = (body: any) => Object.fromEntries(body.items.map((i: any) => [i.kind, i.remaining]));
    expect(left(first.body)).toMatchObject({ paid: 1, ticketed: 0, refund: 1, reminder: 0 });
    // the same dialog's answers posted again (a retry): nothing more
    expect(left((await post({ requestId: 'req-consent-1', results: answers })).body)).toMatchObject({
      paid: 1,
    });
    expect(
      left((await post({ requestId: 'req-consent-2', results: { TPL_PAID: 'accept' } })).body),
    ).toMatchObject({ paid: 2 });
    const foreign = await post({
      requestId: 'req-consent-3',
      results: { TPL_PAID: 'accept', TPL_OTHER: 'accept' },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe('VALIDATION_FAILED');
    for (const bad of [
      { requestId: 'req-consent-4', results: { TPL_PAID: 'yes' } },
      { requestId: 'x', results: { TPL_PAID: 'accept' } },
      { requestId: 'req-consent-5', results: {} },
      { results: { TPL_PAID: 'accept' } },
    ])
      expect((await post(bad)).status).toBe(400);
    const now = await p.api.call('GET', '/api/v1/me/subscriptions', { token: fan.token });
    expect(left(now.body)).toMatchObject({ paid: 2, refund: 1 }); // the refused posts changed nothing
    expect((await p.api.call('POST', '/api/v1/me/subscriptions', { body: {} })).status).toBe(401);
  });
});

describe('sending', () => {
  it('sends the paid and ticketed notices when the fan consented, spending one consent each', async () => {
    const o = await buyAndPay('openid-notice-yes', ['paid', 'ticketed']);
    await p.until(async () => messagesFor(o.orderNo).length === 2 && true, 'two messages');
    expect(
      messagesFor(o.orderNo)
        .map((m) => m.template_id)
        .sort(),
    ).toEqual(['TPL_PAID', 'TPL_TICKETED']);
    expect(messagesFor(o.orderNo)[0]!.data).toMatchObject({ character_string2: { value: o.orderNo } });
    await p.until(async () => (await noticesOf(o.orderNo)).every((n) => n.status === 'sent') && true, 'sent');
    expect(await noticesOf(o.orderNo)).toEqual([
      { template: 'paid', kind: 'paid', status: 'sent', errcode: null, template_id: 'TPL_PAID' },
      { template: 'ticketed', kind: 'ticketed', status: 'sent', errcode: null, template_id: 'TPL_TICKETED' },
    ]);
    expect(await remaining(o.fan.userId, 'paid')).toBe(0);
    expect(await remaining(o.fan.userId, 'ticketed')).toBe(0);
  });

  it('records no_consent and does not call WeChat when the fan gave no consent', async () => {
    const o = await buyAndPay('openid-notice-none');
    await p.until(async () => (await noticesOf(o.orderNo)).length === 2 && true, 'two notice records');
    expect((await noticesOf(o.orderNo)).map((n) => [n.template, n.status, n.errcode])).toEqual([
      ['paid', 'no_consent', null],
      ['ticketed', 'no_consent', null],
    ]);
    expect(messagesFor(o.orderNo)).toEqual([]);
  });

  it('records WeChat 43101 as refused (not dropped) and spends the consent the server held', async () => {
    // The server was told of an accept WeChat does not know (e.g. a post replayed from elsewhere).
    const fan = await p.login('openid-notice-43101');
    await p.api.call('POST', '/api/v1/me/subscriptions', {
      token: fan.token,
      body: { requestId: 'req-43101-1', results: { TPL_TICKETED: 'accept' } },
    });
    await p.api.call('POST', '/api/v1/me/subscriptions', {
      token: fan.token,
      body: { requestId: 'req-43101-2', results: { TPL_TICKETED: 'accept' } },
    });
    const o = await buyAndPay('openid-notice-43101');
    await p.until(
      async () =>
        (await noticesOf(o.orderNo)).some((n) => n.template === 'ticketed' && n.status !== 'sending'),
      'the ticketed notice settled',
    );
    const ticketed = (await noticesOf(o.orderNo)).find((n) => n.template === 'ticketed');
    expect(ticketed).toMatchObject({ status: 'refused', errcode: 43101 });
    expect(await remaining(fan.userId, 'ticketed')).toBe(0); // both counted sends are gone
    expect(messagesFor(o.orderNo)).toEqual([]);
    // the ops page lists it, by kind and errcode
    expect(await noticeProblems(p.deps.db)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'ticketed', status: 'refused', errcode: 43101, count: 1 }),
        expect.objectContaining({ kind: 'paid', status: 'no_consent', errcode: null }),
      ]),
    );
  });
});

describe('the consumer, called as RabbitMQ redelivers', () => {
  const log = pino({ level: 'silent' });
  let order: { id: string; userId: string; orderNo: string };

  beforeAll(async () => {
    const o = await buyAndPay('openid-notice-redeliver');
    const row = (await q('SELECT id, user_id FROM orders WHERE order_no = ?', [o.orderNo]))[0]!;
    order = { id: String(row.id), userId: String(row.user_id), orderNo: o.orderNo };
  });

  it('sends once per message key, however often the message comes', async () => {
    await consentTo(
      p,
      { token: (await p.login('openid-notice-redeliver')).token },
      'openid-notice-redeliver',
      ['refund'],
    );
    const d = { db: p.deps.db, wechat: p.deps.wechat, log, templates: p.config.wechat.templates };
    const m = { userId: order.userId, template: 'refunded' as const, orderId: order.id };
    const before = messagesFor(order.orderNo).length;
    expect(await sendNotice(d, m, 'test-redeliver-1', p.clock.now())).toBe('sent');
    expect(await sendNotice(d, m, 'test-redeliver-1', p.clock.now())).toBe('sent');
    expect(messagesFor(order.orderNo).length).toBe(before + 1);
    // another message of the same kind finds no consent left
    expect(await sendNotice(d, m, 'test-redeliver-2', p.clock.now())).toBe('no_consent');
    expect(messagesFor(order.orderNo).length).toBe(before + 1);
  });

  it('retries a transient WeChat error without taking a second consent', async () => {
    await consentTo(
      p,
      { token: (await p.login('openid-notice-redeliver')).token },
      'openid-notice-redeliver',
      ['reminder'],
    );
    const answers = [{ errcode: -1, errmsg: 'system error' }];
    const wechat = {
      sendSubscribeMessage: async (msg: Parameters<typeof p.deps.wechat.sendSubscribeMessage>[0]) =>
        answers.shift() ?? p.deps.wechat.sendSubscribeMessage(msg),
    };
    const d = { db: p.deps.db, wechat, log, templates: p.config.wechat.templates };
    const m = { userId: order.userId, template: 'reminder' as const, orderId: order.id };
    await expect(sendNotice(d, m, 'test-transient-1', p.clock.now())).rejects.toBeInstanceOf(
      TransientNoticeError,
    );
    const mid = (
      await q("SELECT status, errcode, attempts FROM notices WHERE message_key = 'test-transient-1'")
    )[0];
    expect(mid).toMatchObject({ status: 'sending', errcode: -1, attempts: 1 });
    expect(await noticeProblems(p.deps.db)).toContainEqual(
      expect.objectContaining({ kind: 'reminder', status: 'sending', errcode: -1, count: 1 }),
    );
    expect(await remaining(order.userId, 'reminder')).toBe(0); // taken once, held for the retry
    expect(await sendNotice(d, m, 'test-transient-1', p.clock.now())).toBe('sent');
    expect(p.sim.messages().filter((x) => x.template_id === 'TPL_REMINDER')).toHaveLength(1);
  });

  it('records a notice it cannot address as failed, once, without taking a consent', async () => {
    await consentTo(
      p,
      { token: (await p.login('openid-notice-redeliver')).token },
      'openid-notice-redeliver',
      ['refund'],
    );
    const d = {
      db: p.deps.db,
      wechat: p.deps.wechat,
      log,
      templates: p.config.wechat.templates,
    };
    const before = await remaining(order.userId, 'refund');
    // An order that does not exist: no recipient.
    const gone = { userId: order.userId, template: 'refunded' as const, orderId: '999999999' };
    expect(await sendNotice(d, gone, 'test-failed-1', p.clock.now())).toBe('failed');
    expect(await sendNotice(d, gone, 'test-failed-1', p.clock.now())).toBe('failed');
    const rows = await q("SELECT status, errmsg, attempts FROM notices WHERE message_key = 'test-failed-1'");
    expect(rows).toEqual([{ status: 'failed', errmsg: 'recipient not found', attempts: 0 }]);
    // A template this server does not know (a message of a newer version).
    const odd = { userId: order.userId, template: 'no_such_template', orderId: order.id } as never;
    expect(await sendNotice(d, odd, 'test-failed-2', p.clock.now())).toBe('failed');
    expect((await q("SELECT errmsg FROM notices WHERE message_key = 'test-failed-2'"))[0]).toEqual({
      errmsg: 'unknown notice template no_such_template',
    });
    expect(await remaining(order.userId, 'refund')).toBe(before);
  });
});

describe('a fan with no consent', () => {
  const log = pino({ level: 'silent' });
  it('records the notice no_consent in one statement after the recipient, with no transaction, once', async () => {
    const o = await buyAndPay('openid-notice-none');
    const row = (await q('SELECT id, user_id FROM orders WHERE order_no = ?', [o.orderNo]))[0]!;
    const m = { userId: String(row.user_id), template: 'refunded' as const, orderId: String(row.id) };
    const { calls, db } = countedPool(p.deps.db);
    const d = { db, wechat: p.deps.wechat, log, templates: p.config.wechat.templates };
    expect(await sendNotice(d, m, 'test-none-1', p.clock.now())).toBe('no_consent');
    // The recipient (with the fan's sends left), then the notice's row: no connection of its own.
    expect(calls).toEqual({ query: 2, getConnection: 0 });
    // A redelivery answers the row's state and sends nothing.
    expect(await sendNotice(d, m, 'test-none-1', p.clock.now())).toBe('no_consent');
    expect(
      await q("SELECT status, errcode, attempts, template_id FROM notices WHERE message_key = 'test-none-1'"),
    ).toEqual([{ status: 'no_consent', errcode: null, attempts: 0, template_id: 'TPL_REFUND' }]);
    expect(messagesFor(o.orderNo)).toHaveLength(0);
    // Once the fan consents, the next notice takes the send in the consent's transaction.
    await consentTo(p, o.fan, 'openid-notice-none', ['refund']);
    expect(await sendNotice(d, m, 'test-none-2', p.clock.now())).toBe('sent');
    expect(calls.getConnection).toBe(1);
    expect(await remaining(m.userId, 'refund')).toBe(0);
    expect(messagesFor(o.orderNo)).toHaveLength(1);
  });
});

describe("notices delivered together (the consumer's batches of first steps)", () => {
  const log = pino({ level: 'silent' });
  let orders: { id: string; userId: string; orderNo: string; fan: { token: string } }[];
  const statusOf = async (key: string) =>
    (await q('SELECT status, errmsg, attempts, template_id FROM notices WHERE message_key = ?', [key]))[0];

  beforeAll(async () => {
    orders = [];
    for (const openid of ['openid-batch-1', 'openid-batch-2', 'openid-batch-3']) {
      const o = await buyAndPay(openid);
      const row = (await q('SELECT id, user_id FROM orders WHERE order_no = ?', [o.orderNo]))[0]!;
      orders.push({ id: String(row.id), userId: String(row.user_id), orderNo: o.orderNo, fan: o.fan });
    }
  });

  /** One NoticeFirstSteps on the real pool, its calls counted, and deps that use it. */
  function batched() {
    const { calls, db } = countedPool(p.deps.db);
    const firstSteps = new NoticeFirstSteps(db, log, { batchMax: 20, inflightMax: 2 });
    return { calls, d: { db, wechat: p.deps.wechat, log, templates: p.config.wechat.templates, firstSteps } };
  }
  const refunded = (o: { id: string; userId: string }) => ({
    userId: o.userId,
    template: 'refunded' as const,
    orderId: o.id,
  });

  it('reads their recipients in one query and records their final first states in one INSERT', async () => {
    // The second fan consented to another template only: consent is read per notice's template.
    await consentTo(p, orders[1]!.fan, 'openid-batch-2', ['reminder']);
    const { calls, d } = batched();
    const gone = { userId: orders[0]!.userId, template: 'refunded' as const, orderId: '999999999' };
    const odd = { userId: orders[0]!.userId, template: 'no_such_template', orderId: orders[0]!.id } as never;
    const now = p.clock.now();
    const answers = await Promise.all([
      sendNotice(d, refunded(orders[0]!), 'batch-a-0', now),
      sendNotice(d, refunded(orders[1]!), 'batch-a-1', now),
      sendNotice(d, refunded(orders[2]!), 'batch-a-2', now),
      sendNotice(d, gone, 'batch-a-gone', now),
      sendNotice(d, odd, 'batch-a-odd', now),
    ]);
    expect(answers).toEqual(['no_consent', 'no_consent', 'no_consent', 'failed', 'failed']);
    // Alone, each notice was two statements (its recipient, its row): ten here.
    expect(calls).toEqual({ query: 2, getConnection: 0 });
    for (const k of ['batch-a-0', 'batch-a-1', 'batch-a-2'])
      expect(await statusOf(k)).toEqual({
        status: 'no_consent',
        errmsg: null,
        attempts: 0,
        template_id: 'TPL_REFUND',
      });
    expect(await statusOf('batch-a-gone')).toMatchObject({ status: 'failed', errmsg: 'recipient not found' });
    expect(await statusOf('batch-a-odd')).toMatchObject({
      status: 'failed',
      errmsg: 'unknown notice template no_such_template',
    });
    expect(await remaining(orders[1]!.userId, 'reminder')).toBe(1); // untouched
    expect(orders.flatMap((o) => messagesFor(o.orderNo))).toEqual([]);
  });

  it('a redelivery in the batch: rows inserted one by one, each delivery answered as alone', async () => {
    const { calls, d } = batched();
    const now = p.clock.now();
    const answers = await Promise.all([
      sendNotice(d, refunded(orders[0]!), 'batch-a-0', now), // redelivered
      sendNotice(d, refunded(orders[1]!), 'batch-b-1', now), // new
      sendNotice(
        d,
        { userId: orders[0]!.userId, template: 'refunded', orderId: '999999999' },
        'batch-a-gone',
        now,
      ),
    ]);
    expect(answers).toEqual(['no_consent', 'no_consent', 'failed']);
    expect(await statusOf('batch-b-1')).toEqual({
      status: 'no_consent',
      errmsg: null,
      attempts: 0,
      template_id: 'TPL_REFUND',
    });
    const [{ n }] = (await q("SELECT COUNT(*) n FROM notices WHERE message_key LIKE 'batch-%'")) as [
      { n: string },
    ];
    expect(Number(n)).toBe(6);
    // The recipients, the batch's INSERT (refused), three INSERT IGNOREs, the two rows read back.
    expect(calls).toEqual({ query: 7, getConnection: 0 });
  });

  it("a fan with a send left goes on to the consent's transaction and is sent; the others are not", async () => {
    await consentTo(p, orders[2]!.fan, 'openid-batch-3', ['refund']);
    const { calls, d } = batched();
    const now = p.clock.now();
    const answers = await Promise.all([
      sendNotice(d, refunded(orders[0]!), 'batch-c-0', now),
      sendNotice(d, refunded(orders[2]!), 'batch-c-2', now),
    ]);
    expect(answers).toEqual(['no_consent', 'sent']);
    expect(calls.getConnection).toBe(1); // the consent's transaction, for the one fan with a send
    expect(await remaining(orders[2]!.userId, 'refund')).toBe(0);
    expect(messagesFor(orders[2]!.orderNo)).toHaveLength(1);
    expect(messagesFor(orders[0]!.orderNo)).toHaveLength(0);
  });
});

describe('the day-before reminder job', () => {
  it('enqueues one reminder per ticketed order of a session starting within a day, once', async () => {
    const soon = await createSession(p.deps, {
      seats: 4,
      startsAt: new Date(p.clock.now().getTime() + 20 * 3_600_000),
    });
    const fan = await p.login('openid-reminder');
    const o = await p.orderAndPrepay('openid-reminder', {
      sessionId: soon.sessionId,
      seatIds: [soon.seatIds[0]],
    });
    p.sim.pay(o.payParams);
    const orderId = await p.until(async () => {
      const r = (await q('SELECT id, status FROM orders WHERE order_no = ?', [o.orderNo]))[0];
      return r?.status === 3 && String(r.id);
    }, 'tickets');
    const reminders = () =>
      q(
        "SELECT payload FROM outbox WHERE topic = 'notice.send' AND payload LIKE '%\"reminder\"%' AND payload LIKE ?",
        [`%"orderId":"${orderId}"%`],
      );
    const first = await enqueueReminders(p.deps, p.clock.now());
    expect(first).toBeGreaterThanOrEqual(1);
    expect(await enqueueReminders(p.deps, p.clock.now())).toBe(0);
    expect(await reminders()).toHaveLength(1);
    expect(JSON.parse(String((await reminders())[0]!.payload))).toEqual({
      userId: fan.userId,
      template: 'reminder',
      orderId,
    });
    // Two instances that both read the order as due: only the first writes the message.
    const other = await createSession(p.deps, {
      seats: 4,
      startsAt: new Date(p.clock.now().getTime() + 10 * 3_600_000),
    });
    const o2 = await p.orderAndPrepay('openid-reminder', {
      sessionId: other.sessionId,
      seatIds: [other.seatIds[0]],
    });
    const order2 = (await q('SELECT id FROM orders WHERE order_no = ?', [o2.orderNo]))[0]!;
    const due = { orderId: String(order2.id), userId: fan.userId };
    const both = [
      await enqueueReminder(p.deps, due, p.clock.now()),
      await enqueueReminder(p.deps, due, p.clock.now()),
    ];
    expect(both).toEqual([true, false]);
    const msgs = await q('SELECT COUNT(*) n FROM outbox WHERE aggregate_id = ?', [`reminder-${due.orderId}`]);
    expect(Number(msgs[0]!.n)).toBe(1);
    // The 30-days-away session's orders are not due.
    const far = await q(
      `SELECT COUNT(*) n FROM notice_reminders nr JOIN orders o ON o.id = nr.order_id WHERE o.session_id = ?`,
      [s.sessionId],
    );
    expect(Number(far[0]!.n)).toBe(0);
  });
});
