// npm run chaos [-- --seed N] [--small] [--buyers N] [--apis N] [--heal-s N] [--spread-s N]
//                [--no-cancel]
//
// A seeded chaos run of the whole money path (issue 10): 2+ API processes and a worker process
// (server/dist/main.js), buyers who hold, pay, cancel, refund and get checked in while faults are
// injected at random from the seed; then the system heals by itself and the audit checks every
// invariant. Last line: one JSON object; exit code 1 when any invariant is broken. Issue 16:
// buyers hand tickets on (transfers.mjs) and a second session is cancelled mid-run (cancel.mjs);
// buyers exchange tickets (改签, exchanges.mjs) and fans wait in line for a sold-out session's
// returned units (候补, waitlist.mjs).
import { dist, leftQueues, openSession, parseArgs, rng } from '../lib.mjs';
import { auditReconciliation, audit } from './audit.mjs';
import { runBuyers } from './buyers.mjs';
import { adminLogin, allowTransfers, auditCancelled, cancelMidRun, seedCancelSession } from './cancel.mjs';
import { allowExchanges, seedSecondSession } from './exchanges.mjs';
import { runWaitlist, seedWaitlistSession } from './waitlist.mjs';
import { tamperExchanges, tamperWaitlist } from './tamper.mjs';
import { injectFaults } from './faults.mjs';
import { openStack } from './stack.mjs';
import { sessionSummary } from './side-show.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const args = parseArgs(process.argv.slice(2));
const small = Boolean(args.small);
const seed = args.seed !== undefined ? Number(args.seed) : Math.floor(Math.random() * 2 ** 31);
const buyers = Number(args.buyers ?? (small ? 200 : 2000));
const apis = Math.max(2, Number(args.apis ?? 2));
const healS = Number(args['heal-s'] ?? (small ? 150 : 240));
/** Buyers arrive over at least this long, faults are injected meanwhile. */
const spreadS = Number(args['spread-s'] ?? (small ? 45 : 120));
/** The organiser cancels the second session this far into the buyers' spread. */
const cancelAt = args['no-cancel'] ? undefined : 0.5;
const log = (m) => console.log(`[chaos ${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const t0 = Date.now();
console.log(`chaos: seed ${seed} (replay: npm run chaos -- --seed ${seed}${small ? ' --small' : ''})`);

let stack;
const abort = async (signal) => {
  console.log(`chaos: ${signal}, stopping (seed ${seed})`);
  stack?.killAll();
  await stack?.close().catch(() => {});
  process.exit(130);
};
process.once('SIGINT', () => void abort('SIGINT'));
process.once('SIGTERM', () => void abort('SIGTERM'));
process.once('exit', () => stack?.killAll());

async function seedSession(deps) {
  const { insertVenue, insertShow } = dist('catalog/admin-repo.js');
  const { blockSeats } = dist('catalog/layout.js');
  const rows = Math.max(2, Math.ceil((buyers * 1.2) / 20));
  const zoneCapacity = Math.max(10, Math.floor(buyers * 0.6));
  const seats = blockSeats({ section: 'A', rows, seatsPerRow: 20, originX: 0, originY: 0 });
  const venueId = await insertVenue(deps.db, {
    name: '混沌体育馆',
    city: '上海',
    seats,
    zones: [{ name: '内场', capacity: zoneCapacity }],
  });
  const showId = await insertShow(deps.db, {
    title: '混沌演出',
    venueId,
    refundRules: [{ hoursBeforeStart: 12, feePercent: 5 }], // refunds allowed, with a fee kept
  });
  const now = new Date();
  const { id, cat } = await openSession(deps, {
    showId,
    now,
    startsAt: new Date(now.getTime() + 86_400_000),
    purchaseLimit: 4,
    holdMinutes: 1,
    seatFen: 38_000,
    zoneName: '内场',
    zoneFen: 58_000,
  });
  const [ins] = await deps.db.query('INSERT INTO users (openid) VALUES (?)', [`chaos-staff-${seed}`]);
  const staffId = String(ins.insertId);
  await deps.db.query(
    "INSERT INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'chaos', UTC_TIMESTAMP(3))",
    [staffId, showId],
  );
  return {
    session: sessionSummary(id, showId, cat, zoneCapacity),
    staffId,
    staffToken: await deps.tokens.issue({ userId: staffId, roles: ['fan'] }),
  };
}

/**
 * The run's world: the main session and its show's second session (exchanges go there too), the
 * one to cancel (unless --no-cancel), the waiting-list session; the first two shows allowing
 * transfers and exchanges (set through the admin API, as an organiser does).
 */
async function seedWorld(stack) {
  const { session, staffId, staffToken } = await seedSession(stack.deps);
  const now = new Date();
  const session2 = await seedSecondSession(stack.deps, session, now);
  const cancelSession =
    cancelAt === undefined ? undefined : await seedCancelSession(stack.deps, { buyers, staffId, now });
  const waitSession = await seedWaitlistSession(stack.deps, { small, staffId, now });
  const admin = await adminLogin(stack.url);
  for (const s of [session, cancelSession].filter(Boolean)) {
    await allowTransfers(stack.url, admin, s.showId);
    await allowExchanges(stack.url, admin, s.showId);
  }
  return {
    url: stack.url,
    sim: stack.sim,
    session,
    session2,
    cancelSession,
    waitSession,
    staffToken,
    seed,
    stop: () => false,
  };
}

/** The audit of every session (the cancelled one has its own checks too). */
async function auditWorld(stack, world) {
  const others = [world.session2, world.cancelSession, world.waitSession].filter(Boolean);
  const r = await audit(stack, world.session, { others });
  if (world.cancelSession) await auditCancelled(stack, world.cancelSession, r.violations);
  return r;
}

/** Audits until healed or the heal window is over. */
async function healAndAudit(stack, world, startedAt) {
  const healStart = Date.now();
  let result;
  for (;;) {
    result = await auditWorld(stack, world).catch((e) => ({
      violations: [`audit failed: ${e.message}`],
      money: {},
      counts: {},
    }));
    if (!result.violations.length) {
      const rec = await auditReconciliation(stack, startedAt).catch((e) => [
        `reconciliation failed: ${e.message}`,
      ]);
      result.violations.push(...rec);
      if (!rec.length) break;
    }
    if (Date.now() - healStart > healS * 1000) break;
    log(`not healed yet: ${result.violations.length} open (${result.violations[0]})`);
    await sleep(5000);
  }
  return { result, heal_s: Math.round((Date.now() - healStart) / 100) / 10 };
}

/**
 * --tamper: after healing, break invariants by hand (a ticket of a refunded order made valid
 * again, a sold seat deleted from Redis; issue 16: a transferred ticket admitted, a ticket of the
 * cancelled session made valid again) and audit again: shows the audit is not blind. Exit 1.
 */
async function tamper(stack, world) {
  const { session, cancelSession } = world;
  const db = stack.deps.db;
  const { TICKET_STATUS } = dist('tickets/status.js');
  await db.query(
    `INSERT INTO checkins (ticket_id, session_id, gate, staff_user_id, mode, scanned_at, recorded_at)
     SELECT id, session_id, 'TAMPER', 0, 'online', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) FROM tickets
      WHERE status = ? AND id NOT IN (SELECT ticket_id FROM checkins) LIMIT 1`,
    [TICKET_STATUS.TRANSFERRED],
  );
  if (cancelSession)
    await db.query(
      `UPDATE tickets t SET t.status = ? WHERE t.session_id = ? AND t.status = ?
          AND NOT EXISTS (SELECT 1 FROM (SELECT order_item_id FROM tickets WHERE status <> ?) x
                           WHERE x.order_item_id = t.order_item_id) LIMIT 1`,
      [TICKET_STATUS.VALID, cancelSession.id, TICKET_STATUS.VOIDED, TICKET_STATUS.VOIDED],
    );
  await db.query(
    `UPDATE tickets t JOIN refunds r ON r.order_id = t.order_id AND r.kind = 'order' AND r.status = 2
        SET t.status = 1 LIMIT 1`,
  );
  const [[sold]] = await db.query(
    'SELECT i.seat_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 3 AND i.seat_id IS NOT NULL LIMIT 1',
  );
  if (sold) await stack.deps.redis.hdel(stack.deps.keys.session(session.id).seats, String(sold.seat_id));
  await tamperExchanges(db, log);
  await tamperWaitlist(db, world.waitSession, log);
  const after = await auditWorld(stack, world);
  log(`tampered: the audit now finds ${after.violations.length} violations`);
  return after.violations;
}

/**
 * The waiting-list scenario beside the buyers: fans in line answer offers until a while after the
 * buyers are done (later offers lapse by themselves while the system heals).
 */
function startWaitlist(world) {
  const stats = { wlJoined: 0, wlOffered: 0, wlPaid: 0, wlLetLapse: 0 };
  let doneAt = Infinity;
  const run = runWaitlist(world, {
    s: world.waitSession,
    small,
    stats,
    deadline: () => doneAt + (small ? 10_000 : 30_000),
    log,
  }).catch((e) => log(`waitlist scenario failed: ${e.stack}`));
  return { run, stats, buyersDone: () => (doneAt = Date.now()) };
}

async function main() {
  const startedAt = new Date();
  // Waiting-list offers held for the shortest time allowed, swept often: they lapse and pass on
  // within the run.
  const env = { WAITLIST_OFFER_MS: '60000', WAITLIST_SWEEP_INTERVAL_MS: '2000' };
  stack = await openStack({ seed, apis, env });
  log(`stack up: ${apis} API processes + 1 worker behind ${stack.url}; logs in ${stack.logDir}`);
  const world = await seedWorld(stack);
  const { cancelSession } = world;
  let buying = true;
  const faultsRun = injectFaults(stack, rng(seed ^ 0x5eed), {
    stop: () => !buying,
    gapMs: small ? 5000 : 3000,
    log,
  });
  const cancelRun = cancelSession
    ? cancelMidRun(stack.url, cancelSession.id, { afterMs: spreadS * 1000 * cancelAt, log })
    : Promise.resolve(undefined);
  const wl = startWaitlist(world);
  const stats = await runBuyers(world, {
    seed,
    buyers,
    concurrency: small ? 16 : 40,
    spreadMs: spreadS * 1000,
    stop: () => false,
  });
  buying = false;
  wl.buyersDone();
  const faults = await faultsRun;
  await wl.run;
  log(`waiting list: ${JSON.stringify(wl.stats)}`);
  const cancelled = await cancelRun;
  log(`buyers done: ${JSON.stringify(stats)}; ${faults.length} faults; healing (window ${healS} s)`);

  // Heal: every process runs, WeChat behaves; nobody repairs anything by hand.
  await stack.allUp();
  stack.amqpProxy.set('up');
  stack.mysqlProxy.set('up');
  stack.sim.resetFaults();
  await stack.sim.flushNotifications().catch(() => {});
  const { result, heal_s } = await healAndAudit(stack, world, startedAt);
  if (cancelled === false)
    result.violations.push(`the organiser could not cancel session ${cancelSession.id}`);
  if (args.tamper) result.violations.push(...(await tamper(stack, world)));
  // A run in which nobody bought anything audited nothing: that is a failure, not "0 violations".
  if (!result.money.orders) result.violations.push('no order was placed: the run tested nothing');
  const violations = result.violations;
  if (violations.length) {
    console.log(`chaos: seed ${seed}: ${violations.length} violations after ${heal_s} s of healing:`);
    for (const v of violations.slice(0, 50)) console.log(`  - ${v}`);
    console.log(
      `chaos: process logs kept in ${stack.logDir}; replay: npm run chaos -- --seed ${seed}${small ? ' --small' : ''}`,
    );
  }
  console.log(`chaos: faults: ${faults.map((f) => `${f.at_s}s ${f.what}`).join('; ')}`);
  console.log(
    `chaos: ${result.money.foreign ?? 0} payments taken in another currency, ${result.money.foreign_fen ?? 0} fen of them refunded`,
  );
  await stack.close({ keepLogs: violations.length > 0 });
  // A run leaves nothing behind: its queues too (they were all left once, the cleanup unseen).
  const queuesLeft = await leftQueues(stack.config);
  if (queuesLeft.length) console.log(`chaos: queues left after close: ${queuesLeft.join(', ')}`);
  stack = undefined;
  const summary = {
    seed,
    buyers,
    orders: result.money.orders ?? 0,
    paid_fen: result.money.paid_fen ?? 0,
    ticketed_fen: result.money.ticketed_fen ?? 0,
    refunded_fen: result.money.refunded_fen ?? 0,
    open_fen: result.money.open_fen ?? 0,
    faults: faults.length,
    transfers: result.counts?.transfers ?? 0,
    exchanges: result.counts?.exchanges ?? {},
    waitlist: result.counts?.waitlist ?? {},
    refunds: result.counts?.refunds ?? {},
    cancelled_sessions: result.counts?.cancelled_sessions ?? 0,
    violations: violations.length,
    queues_left: queuesLeft.length,
    heal_s,
  };
  console.log(JSON.stringify(summary));
  return violations.length || queuesLeft.length ? 1 : 0;
}

main().then(
  (rc) => process.exit(rc),
  async (err) => {
    console.error(`chaos: seed ${seed}: run failed:`, err);
    stack?.killAll();
    await stack?.close().catch(() => {});
    process.exit(1);
  },
);
