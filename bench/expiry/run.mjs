// Expiry benchmark (npm run bench -- --scenario expiry [--orders 8000 --smoke]): an on-sale's
// unpaid holds fall due at the rate they were taken (the flash-sale bench takes 1,100-1,400
// orders a second), and their seats come back only once the expiry job has cancelled them.
// N pending orders are placed through the real API (one seat each, four sessions), then expired
// in four rounds, alternated: by the job as it runs now (orders/expiry.ts: the plain case of each
// batch together, orders/expire-batch.ts) and one by one through the cancel workflow, as the job
// did until 2026-12-06 (eight side by side, batches of 200 due orders). The job runs in this
// process, on the same code and deps as the server's. Measured per mode: orders expired a
// second, CPU µs per order of this process, MySQL and Redis, MySQL statements and commits per
// order (MySQL's own counters); `batch_over_one_by_one` is the ratio of the two rates in this run.
// With --paying, every order's payment was started (its fan opened the payment sheet and walked
// away): the WeChat simulator runs as a process of its own, answering each call after
// --wechat-ms (100), and each order's trade must be closed at WeChat before it is cancelled. The
// job settles them side by side and cancels the closed ones together; the old loop took each
// through the whole cancel workflow, eight in lock-step.
// Last line: one JSON object, also written to bench/results/.
import path from 'node:path';
import {
  cpuMeter,
  dist,
  freePort,
  mainThreadOf,
  openBench,
  parseArgs,
  pool,
  postOrders,
  report,
  root,
  runMain,
  startProcess,
  storePids,
} from '../lib.mjs';
import { seedTour, seedUsers } from '../flash-sale/seed.mjs';

const { expireDueOrders } = dist('orders/expiry.js');
const { dueForExpiry, orders: orderRows } = dist('orders/repo.js');
const { paymentsToCheck, markChecked } = dist('payments/repo.js');

const args = parseArgs(process.argv.slice(2));
const smoke = args.smoke === true;
const PAYING = args.paying === true;
const WECHAT_MS = Number(args['wechat-ms'] ?? 100);
const ORDERS = Number(args.orders ?? (smoke ? 800 : PAYING ? 4000 : 8000));
const ROUNDS = ['one_by_one', 'batch', 'batch', 'one_by_one'];
const PER_ROUND = Math.floor(ORDERS / ROUNDS.length / 200) * 200 || 200;

async function mysqlCounters(db) {
  const [rows] = await db.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_commit')");
  return Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
}

/** The job as it was: due orders 200 at a time, each through the cancel workflow, eight side by side. */
async function oneByOne(d, now) {
  let n = 0;
  for (;;) {
    const due = await dueForExpiry(d.db, now, 200);
    if (due.length === 0) return n;
    for (let i = 0; i < due.length; i += 8) {
      const rs = await Promise.all(due.slice(i, i + 8).map((o) => d.orders.expire(o.id, now)));
      n += rs.filter(Boolean).length;
    }
  }
}

async function batch(d, now) {
  let n = 0;
  for (let k; (k = await expireDueOrders(d, now)) > 0;) n += k;
  return n;
}

/** PER_ROUND pending orders in each session, one seat each, through the real API. */
async function placeOrders(bench, sessions, tokens) {
  const statuses = {};
  const sessionOf = (i) => sessions[Math.floor(i / PER_ROUND)];
  await postOrders({
    url: bench.url,
    connections: 50,
    tokens,
    bodies: tokens.map((_, i) =>
      JSON.stringify({ sessionId: sessionOf(i).id, seatIds: [sessionOf(i).seatIds[i % PER_ROUND]] }),
    ),
    keyTag: 'expiry',
    onResponse: (status) => (statuses[status] = (statuses[status] ?? 0) + 1),
  });
  if (statuses[201] !== tokens.length) throw new Error(`placing orders: ${JSON.stringify(statuses)}`);
}

/** The WeChat simulator in a process of its own (its CPU is not the job's), once it answers. */
async function startWechat() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const sim = startProcess(process.execPath, [path.join(root, 'wechat-sim/dist/main.js')], {
    SIM_PORT: String(port),
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/sim/faults`)).ok) break;
    } catch (err) {
      if (i > 300) throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const faults = (f) =>
    fetch(`${url}/sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(f),
    }).then((r) => r.arrayBuffer());
  return { url, sim, faults };
}

/**
 * Every pending order's payment started, as a fan's POST /orders/:no/pay starts it (the payment
 * service in this process, 50 at a time), with what a prepay cost this process: it signs the
 * request and the wx.requestPayment parameters, and checks WeChat's signed answer.
 */
async function startPayments(deps, wechatPid) {
  const [rows] = await deps.db.query('SELECT user_id, order_no FROM orders WHERE status = 1');
  const meter = cpuMeter({ job: process.pid, job_loop: mainThreadOf(process.pid), wechat: wechatPid });
  const t0 = performance.now();
  await pool(rows, 50, (r) => deps.payments.prepay(String(r.user_id), r.order_no, new Date(), '演出门票'));
  const cpu = meter();
  return {
    started: rows.length,
    per_s: Math.round(rows.length / ((performance.now() - t0) / 1000)),
    cpu_us_per_prepay: Object.fromEntries(
      Object.entries(cpu).map(([p, us]) => [p, Math.round(us / rows.length)]),
    ),
  };
}

/** How long each round of the payment check runs (--paying). */
const CHECK_WINDOW_MS = 10_000;

/**
 * The payment check as it was until 2026-12-06 (payments/service.ts checkPending): 50 due orders
 * a run, each read, asked about at WeChat and marked, one at a time. Answers how many it asked.
 */
async function checkOneByOne(deps, now, afterMs) {
  const due = await paymentsToCheck(deps.db, new Date(now - afterMs), new Date(now - 30_000), 50);
  for (const { id } of due) {
    const order = await orderRows.byId(deps.db, id);
    try {
      const tx = await deps.pay.query(order.orderNo);
      if (tx?.trade_state === 'SUCCESS') await deps.payments.applyTransaction(tx, new Date(now));
    } catch {
      /* logged by the old check; asked again later */
    }
    await markChecked(deps.db, [id], new Date(now));
  }
  return due.length;
}

/**
 * The payment check (missing notifications) over every pending order, whose payments all
 * started: rounds of CHECK_WINDOW_MS, alternated, by the check as it runs now (one run: every due
 * order, side by side, within its own budget) and as it was. Orders asked about a second.
 */
async function paymentChecks(deps, pids) {
  const rounds = [];
  for (const mode of ['one_by_one', 'batch', 'batch', 'one_by_one']) {
    await deps.db.query('UPDATE orders SET pay_checked_at = NULL');
    const now = Date.now() + 120_000;
    const meter = cpuMeter(pids);
    const t0 = performance.now();
    if (mode === 'batch') await deps.payments.checkPending(new Date(now), 60_000);
    else while (performance.now() - t0 < CHECK_WINDOW_MS && (await checkOneByOne(deps, now, 60_000)) > 0);
    const s = (performance.now() - t0) / 1000;
    const cpu = meter();
    const [[row]] = await deps.db.query('SELECT COUNT(*) AS n FROM orders WHERE pay_checked_at IS NOT NULL');
    const asked = Number(row.n);
    rounds.push({
      mode,
      asked,
      per_s: Math.round(asked / s),
      cpu_us_per_query: Object.fromEntries(Object.entries(cpu).map(([p, us]) => [p, Math.round(us / asked)])),
    });
  }
  const mean = (mode) => {
    const rs = rounds.filter((r) => r.mode === mode);
    return Math.round(rs.reduce((a, r) => a + r.per_s, 0) / rs.length);
  };
  return { batch_per_s: mean('batch'), one_by_one_per_s: mean('one_by_one'), rounds };
}

/** One round: the orders due at `now` expired by `mode`, with what it cost. */
async function round(d, mode, now, pids) {
  const meter = cpuMeter(pids);
  const before = await mysqlCounters(d.db);
  const t0 = performance.now();
  const expired = await (mode === 'batch' ? batch : oneByOne)(d, now);
  const ms = performance.now() - t0;
  const after = await mysqlCounters(d.db);
  if (expired !== PER_ROUND) throw new Error(`${mode}: ${expired} of ${PER_ROUND} expired`);
  const cpu = meter();
  return {
    mode,
    expired,
    per_s: Math.round((expired / ms) * 1000),
    cpu_us_per_order: Object.fromEntries(Object.entries(cpu).map(([p, us]) => [p, Math.round(us / expired)])),
    // The counters' own SHOW is one question: left out.
    statements_per_order: +((after.Questions - before.Questions - 1) / expired).toFixed(2),
    commits_per_order: +((after.Com_commit - before.Com_commit) / expired).toFixed(3),
  };
}

runMain(async () => {
  const at = new Date().toISOString();
  const wechat = PAYING ? await startWechat() : undefined;
  const bench = await openBench('expiry', {
    RATE_PURCHASE_IP: '0/1',
    ...(wechat && { WECHAT_API_BASE: wechat.url, WECHAT_PAY_API_BASE: wechat.url }),
  });
  try {
    const sessions = await seedTour(bench.deps, {
      sessions: ROUNDS.length,
      seatsPerSession: PER_ROUND,
      zoneCapacity: 10,
    });
    const tokens = await seedUsers(bench.deps, PER_ROUND * ROUNDS.length);
    await bench.startServer();
    await placeOrders(bench, sessions, tokens);
    let prepay;
    if (wechat) {
      prepay = await startPayments(bench.deps, wechat.sim.child.pid);
      if (prepay.started !== tokens.length) throw new Error('payments not started');
      await wechat.faults({ apiDelayMs: WECHAT_MS });
    }
    // Round k's orders fall due k minutes after the last hold ends, so each round finds its own.
    const base = Date.now() + 16 * 60_000;
    for (const [k, s] of sessions.entries())
      await bench.deps.db.query('UPDATE orders SET expire_at = ? WHERE session_id = ?', [
        new Date(base + k * 60_000),
        s.id,
      ]);
    const { db, orders, inventory, log } = bench.deps;
    const d = { db, orders, inventory, log, orphanGraceMs: 60_000 };
    const pids = {
      job: process.pid,
      // The job's event loop alone: WeChat Pay's RSA signatures run in the thread pool.
      job_loop: mainThreadOf(process.pid),
      ...storePids(),
      ...(wechat && { wechat: wechat.sim.child.pid }),
    };
    const checks = wechat ? await paymentChecks(bench.deps, pids) : undefined;
    const rounds = [];
    for (const [k, mode] of ROUNDS.entries())
      rounds.push(await round(d, mode, new Date(base + k * 60_000 + 1), pids));
    const [left] = await db.query('SELECT COUNT(*) AS n FROM orders WHERE status = 1');
    const mean = (mode) => {
      const rs = rounds.filter((r) => r.mode === mode);
      return Math.round(rs.reduce((a, r) => a + r.per_s, 0) / rs.length);
    };
    const result = {
      scenario: 'expiry',
      payment_started: PAYING,
      ...(PAYING && { wechat_ms: WECHAT_MS, prepay, payment_check: checks }),
      orders: PER_ROUND * ROUNDS.length,
      per_round: PER_ROUND,
      batch_per_s: mean('batch'),
      one_by_one_per_s: mean('one_by_one'),
      batch_over_one_by_one: +(mean('batch') / mean('one_by_one')).toFixed(2),
      pending_left: Number(left[0].n),
      rounds,
      at,
    };
    report(result, { save: !smoke, at });
  } finally {
    await bench.close();
    await wechat?.sim.stop();
  }
});
