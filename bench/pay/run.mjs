// Pay -> ticket benchmark (npm run bench -- --scenario pay [--orders 2000 --concurrency 32]):
// N pending orders are placed through the real API, each fan starts its payment through the real
// POST /api/v1/orders/:no/pay (the server's JSAPI prepay at the WeChat simulator, as a fan's
// payment sheet does; measured as `prepay`: prepays/s, p50/p99 and the CPU µs of one), then
// WeChat Pay v3 notifications for them
// (encrypted and signed as WeChat does, with the simulator's test keys) are sent to the real
// notify endpoint; the server's outbox relay, RabbitMQ and the ticket consumer do the rest.
// Measured: notifications/s accepted, notify -> ticket p50/p99 (ticket first seen in MySQL,
// polled every 50 ms from the first notification on, so latencies carry up to 50 ms of polling
// granularity), lost (accepted but never ticketed; must be 0), CPU µs per paid order of the
// server, MySQL and Redis (cpu_us_per_order: from the first notification until every order's two
// notices, paid and ticketed, are settled), MySQL statements and commits per paid order (the server's, from MySQL's
// own counters, this bench's polls left out), and a Koa hello-world's req/s in the same run.
// Prints one JSON object as its last line and writes it to bench/results/.
import { createCipheriv, createSign, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  cpuMeter,
  helloCeiling,
  mainThreadOf,
  openBench,
  parseArgs,
  percentile,
  pool,
  report,
  root,
  storePids,
} from '../lib.mjs';
import { createRequire } from 'node:module';
import { seedTour, seedUsers } from '../flash-sale/seed.mjs';

const args = parseArgs(process.argv.slice(2));
const smoke = args.smoke === true;
const ORDERS = Number(args.orders ?? (smoke ? 200 : 2000));
const CONCURRENCY = Number(args.concurrency ?? 32);
const TICKET_TIMEOUT_MS = 120_000;
/** When waiting for tickets (or notices) gives up. */
const deadline = () => performance.now() + TICKET_TIMEOUT_MS;
const KEYS = path.join(root, 'wechat-sim/test-keys');
const sim = JSON.parse(readFileSync(path.join(KEYS, 'config.json'), 'utf8'));
const signingKey = readFileSync(path.join(KEYS, 'pub_key_private.pem'));

/** A TRANSACTION.SUCCESS notification as WeChat Pay v3 sends it: AES-256-GCM resource, RSA signature. */
function notification(order, i) {
  const tx = {
    appid: sim.appid,
    mchid: sim.mchid,
    out_trade_no: order.orderNo,
    transaction_id: `42000${Date.now()}${String(i).padStart(8, '0')}`.slice(0, 28),
    trade_type: 'JSAPI',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    bank_type: 'OTHERS',
    attach: '',
    success_time: new Date().toISOString().replace(/\.\d+Z$/, '+00:00'),
    payer: { openid: `bench-openid-${i}` },
    amount: { total: order.amountFen, payer_total: order.amountFen, currency: 'CNY', payer_currency: 'CNY' },
  };
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(sim.apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from('transaction', 'utf8'));
  const ct = Buffer.concat([cipher.update(JSON.stringify(tx), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const body = JSON.stringify({
    id: `bench-${i}-${nonce}`,
    create_time: tx.success_time,
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: ct.toString('base64'),
      associated_data: 'transaction',
      nonce,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signNonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestamp}\n${signNonce}\n${body}\n`)
    .sign(signingKey, 'base64');
  const headers = {
    'content-type': 'application/json',
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': signNonce,
    'wechatpay-signature': signature,
    'wechatpay-serial': sim.publicKeyId,
  };
  return { body, headers };
}

async function placeOrders(url, session, tokens) {
  const orders = [];
  const refused = {};
  await pool(tokens, CONCURRENCY, async (token, i) => {
    const res = await fetch(`${url}/api/v1/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': `pay-bench-${i}`,
      },
      body: JSON.stringify({ sessionId: session.id, seatIds: [session.seatIds[i]] }),
    });
    const b = await res.json();
    if (res.status === 201) orders.push({ orderNo: b.orderNo, amountFen: b.amountFen, token });
    else refused[b.error?.code ?? res.status] = (refused[b.error?.code ?? res.status] ?? 0) + 1;
  });
  return { orders, refused };
}

/**
 * The processes whose CPU a phase reports: the server, its event loop alone (`server_loop`: a
 * prepay's RSA signatures run in the thread pool, wechat/pay-signer.ts), MySQL and Redis.
 */
function measured(serverPid) {
  return {
    server: serverPid,
    server_loop: mainThreadOf(serverPid),
    ...storePids(),
  };
}

/**
 * Each fan's payment started as the mini-program starts it (CONCURRENCY at a time): the server
 * signs a JSAPI prepay, sends it to WeChat (the simulator, in this process: its CPU is not the
 * server's) and signs the wx.requestPayment parameters. What one costs the server, MySQL and Redis.
 */
async function startPayments(url, orders, pids) {
  const statuses = {};
  const lat = [];
  const meter = cpuMeter(pids);
  const t0 = performance.now();
  await pool(orders, CONCURRENCY, async (o) => {
    const sent = performance.now();
    const res = await fetch(`${url}/api/v1/orders/${o.orderNo}/pay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await res.arrayBuffer();
    lat.push(performance.now() - sent);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  });
  const s = (performance.now() - t0) / 1000;
  const cpu = meter();
  lat.sort((a, b) => a - b);
  return {
    statuses,
    per_s: Math.round(orders.length / s),
    p50_ms: Math.round(percentile(lat, 50)),
    p99_ms: Math.round(percentile(lat, 99)),
    cpu_us_per_prepay: Object.fromEntries(
      Object.entries(cpu).map(([k, v]) => [k, Math.round(v / orders.length)]),
    ),
  };
}

/**
 * MySQL's own counters (SHOW GLOBAL STATUS): statements the clients sent (`Questions`, each
 * statement of a multi-statement query counted) and transactions committed (`Com_commit`).
 */
async function mysqlCounters(db) {
  const [rows] = await db.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_commit')");
  const v = Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
  return { statements: v.Questions, commits: v.Com_commit };
}

/**
 * Waits until the fans' notices of the session's orders (paid, ticketed: `perOrder` each) are
 * settled (no longer 'sending'), so that what follows a ticket is in the measured work too.
 * Returns how many it counted, and its own queries.
 */
async function watchNotices(db, sessionId, want, deadline) {
  let polls = 0;
  let settled = 0;
  while (settled < want && performance.now() < deadline) {
    polls++;
    const [[row]] = await db.query(
      `SELECT COUNT(*) n FROM notices nt JOIN orders o ON o.id = nt.order_id
        WHERE o.session_id = ? AND nt.status <> 'sending'`,
      [sessionId],
    );
    settled = Number(row.n);
    if (settled < want) await new Promise((r) => setTimeout(r, 50));
  }
  return { settled, polls };
}

/**
 * Polls MySQL for ticketed orders, from the first notification on, while they are sent and after:
 * when each order's ticket was first seen, and how many queries that took. It stops once `sending`
 * has settled and every accepted order (`sentAt`) is seen, or TICKET_TIMEOUT_MS after the sending
 * ended (however long the sending took: --orders may be large). Until 2026-12-06 it began only
 * after the last notification was answered, so every ticket issued meanwhile was first "seen"
 * then: notify -> ticket measured how long the sending took, not the ticketing.
 */
async function watchTickets(db, sessionId, sentAt, sending) {
  const seen = new Map();
  let polls = 0;
  // The deadline, once the sending has ended (Infinity until then).
  let until = Infinity;
  const ended = () => (until = deadline());
  void sending.then(ended, ended);
  const allSeen = () => [...sentAt.keys()].every((no) => seen.has(no));
  while (!(until !== Infinity && allSeen()) && performance.now() < until) {
    polls++;
    const [rows] = await db.query(
      'SELECT DISTINCT o.order_no FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.session_id = ?',
      [sessionId],
    );
    const now = performance.now();
    // Every order of the session is this bench's: an order whose 204 has not reached `notify`
    // yet is seen now all the same; only the accepted ones are counted at the end.
    for (const r of rows) if (!seen.has(r.order_no)) seen.set(r.order_no, now);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { seen: new Map([...seen].filter(([no]) => sentAt.has(no))), polls };
}

/**
 * The WeChat simulator, for what the server itself sends to WeChat during the run: the ticket
 * notice (a subscribe message) of every order. Pointed at a dead port, as this bench first was,
 * each notice failed and was retried 8 times through RabbitMQ: ~16,000 extra messages, failed
 * HTTP calls and MySQL reads competing with the path being measured.
 */
async function startWechat() {
  const require = createRequire(import.meta.url);
  const { startSimulator } = require(path.join(root, 'wechat-sim/dist/index.js'));
  return startSimulator({ log: () => undefined });
}

/**
 * Sends the notifications (CONCURRENCY at a time); `sentAt` gets when each accepted one was
 * sent, by order number, as its answer arrives (the ticket watcher reads it meanwhile).
 */
async function notify(url, notes, sentAt) {
  const statuses = {};
  let accepted = 0;
  await pool(notes, CONCURRENCY, async (n) => {
    const sent = performance.now();
    const res = await fetch(`${url}/api/v1/pay/wechat/notify`, {
      method: 'POST',
      headers: n.headers,
      body: n.body,
    });
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status >= 200 && res.status < 300) {
      accepted++;
      sentAt.set(n.order.orderNo, sent);
    }
  });
  return { statuses, accepted };
}

async function main() {
  const at = new Date().toISOString();
  const wechat = await startWechat();
  const bench = await openBench('pay', {
    LOG_LEVEL: 'error',
    WECHAT_API_BASE: wechat.url,
    WECHAT_PAY_API_BASE: wechat.url,
  });
  try {
    const [session] = await seedTour(bench.deps, {
      sessions: 1,
      seatsPerSession: Math.max(1000, Math.ceil(ORDERS / 1000) * 1000),
      zoneCapacity: 10,
    });
    const tokens = await seedUsers(bench.deps, ORDERS);
    const server = await bench.startServer();
    const { orders, refused } = await placeOrders(bench.url, session, tokens);
    console.log(`pending orders: ${orders.length} (refused: ${JSON.stringify(refused)})`);
    const pids = measured(server.child.pid);
    const prepay = await startPayments(bench.url, orders, pids);
    if (prepay.statuses[200] !== orders.length)
      throw new Error(`prepays: ${JSON.stringify(prepay.statuses)}`);
    const notes = orders.map((o, i) => ({ order: o, ...notification(o, i) }));
    // From the first notification until the last notice settled: the server's, MySQL's and
    // Redis's CPU per paid order (MySQL's includes this bench's polls, one query per 50 ms, each
    // ~3 ms of MySQL's CPU at 2,000 tickets: about 45 µs per paid order in a 2,000-order run).
    const meter = cpuMeter(pids);
    const before = await mysqlCounters(bench.deps.db);
    const t0 = performance.now();
    const sentAt = new Map();
    const sending = notify(bench.url, notes, sentAt);
    const watching = watchTickets(bench.deps.db, session.id, sentAt, sending);
    const { statuses, accepted } = await sending;
    const notifyS = (performance.now() - t0) / 1000;
    const { seen, polls } = await watching;
    // Each paid order's notices (paid, ticketed) are part of its work: measured to their end.
    const notices = await watchNotices(bench.deps.db, session.id, 2 * seen.size, deadline());
    const cpu = meter();
    const after = await mysqlCounters(bench.deps.db);
    // The server's statements: less this bench's own (its polls, and the SHOW before this one).
    const statements = after.statements - before.statements - polls - notices.polls - 1;
    const lat = [...seen].map(([no, t]) => t - sentAt.get(no)).sort((a, b) => a - b);
    const lastTicket = Math.max(...seen.values()) - t0;
    const { rps: hello } = await helloCeiling({ connections: CONCURRENCY, seconds: 5 });
    const notifyPerS = accepted / notifyS;
    const result = {
      scenario: 'pay',
      date: at,
      orders: orders.length,
      notifications_sent: notes.length,
      notify_statuses: statuses,
      notifications_per_s: Math.round(notifyPerS),
      tickets_per_s: Math.round((seen.size / lastTicket) * 1000),
      notify_to_ticket_p50_ms: Math.round(percentile(lat, 50)),
      notify_to_ticket_p99_ms: Math.round(percentile(lat, 99)),
      ticketed: seen.size,
      lost: accepted - seen.size,
      cpu_us_per_order: Object.fromEntries(
        Object.entries(cpu).map(([k, v]) => [k, Math.round(v / Math.max(1, seen.size))]),
      ),
      notices_settled: notices.settled,
      mysql_statements_per_order: Math.round((statements / Math.max(1, seen.size)) * 10) / 10,
      mysql_commits_per_order:
        Math.round(((after.commits - before.commits) / Math.max(1, seen.size)) * 100) / 100,
      hello_rps: Math.round(hello),
      ratio: Math.round((notifyPerS / hello) * 1000) / 1000,
      prepay,
      prepay_ratio: Math.round((prepay.per_s / hello) * 1000) / 1000,
      concurrency: CONCURRENCY,
      poll_granularity_ms: 50,
    };
    console.log(
      `${accepted}/${notes.length} notifications accepted at ${result.notifications_per_s}/s, notify -> ticket p50 ${result.notify_to_ticket_p50_ms} ms p99 ${result.notify_to_ticket_p99_ms} ms, lost ${result.lost}, MySQL statements per paid order ${result.mysql_statements_per_order}, hello ${result.hello_rps} req/s`,
    );
    report(result, { save: !smoke, at: at });
    if (result.lost !== 0) process.exitCode = 1;
  } finally {
    await bench.close();
    await wechat.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
