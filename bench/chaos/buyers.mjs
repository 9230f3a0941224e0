// The buyers of a chaos run: each holds seats or zone units, then pays (through the simulator, as
// wx.requestPayment does), cancels, abandons the hold, refunds, races a refund against payment or
// check-in, or gets checked in at the gate. Choices come from the seed (one stream per buyer).
import { rng } from '../lib.mjs';
import { call, code, gateScan, loginAs, phoneCode, sleep, tally, until } from './calls.mjs';
import { exchangeTicket } from './exchanges.mjs';
import { transferTicket } from './transfers.mjs';

/** Buyers who buy for the session the organiser cancels mid-run, when the run has one. */
const CANCEL_SESSION_SHARE = 0.15;
/** Buyers who, ticketed and neither refunding nor checked in, hand a ticket on (转赠). */
const TRANSFER_SHARE = 0.6;
/** Of the ticketed buyers who do not hand a ticket on, those who exchange one (改签). */
const EXCHANGE_SHARE = 0.7;

/**
 * Runs every buyer, `concurrency` at a time. `world`: {url, sim, session, cancelSession?,
 * staffToken}. Returns counts of what the buyers did (the audit trusts only MySQL, Redis and the
 * simulator).
 */
export async function runBuyers(world, { seed, buyers, concurrency, stop, spreadMs = 0 }) {
  // Buyers arrive spread over spreadMs (not all at once), so faults meet every step of the path.
  const start = Date.now();
  const stats = {
    holds: 0,
    holdRefused: 0,
    paid: 0,
    payRefused: 0,
    cancelled: 0,
    abandoned: 0,
    refunds: 0,
    checkins: 0,
    transferOffers: 0,
    transfers: 0,
    exchangeAsked: 0,
    exchanges: 0,
    exchangeUnpaid: 0,
    errors: 0,
  };
  let next = 0;
  const one = async () => {
    while (!stop() && next < buyers) {
      const i = next++;
      const due = start + (i * spreadMs) / buyers - Date.now();
      if (due > 0) await sleep(due);
      try {
        await buyer(world, rng(seed * 7919 + i), i, stats);
      } catch (e) {
        stats.errors++;
        tally(stats, 'error', { status: 0, body: { code: String(e.message).slice(0, 40) } });
        if (process.env.CHAOS_DEBUG) console.error(`buyer ${i}:`, e);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
  return stats;
}

/** The fan's order: logged in, seats or zone units held. Undefined when the hold is refused. */
async function holdOrder(w, r, i, stats) {
  // A second stream for the choices added by issue 16 (which session, transfers): the first
  // stream draws what it always drew, so the main session's buyers act as before.
  const r2 = rng(((w.seed * 7919 + i) ^ 0x2545f491) >>> 0);
  const session = w.cancelSession && r2() < CANCEL_SESSION_SHARE ? w.cancelSession : w.session;
  const token = await loginAs(w, `chaos-${w.seed}-${i}`);
  const body =
    r() < 0.6
      ? { sessionId: session.id, seatIds: pick(r, session.seatIds, 1 + Math.floor(r() * 3)) }
      : { sessionId: session.id, zoneId: session.zoneId, quantity: 1 + Math.floor(r() * 2) };
  const key = `chaos-${w.seed}-${i}-${Math.floor(r() * 1e9)}`;
  const hold = await call(w.url, 'POST', '/api/v1/orders', {
    token,
    body,
    headers: { 'idempotency-key': key },
  });
  if (hold.status !== 201) {
    stats.holdRefused++;
    tally(stats, 'hold', hold);
    return undefined;
  }
  stats.holds++;
  const orderNo = hold.body.orderNo;
  return { r2, session, token, orderNo, path: `/api/v1/orders/${orderNo}` };
}

/** Abandoned, cancelled, or paid at WeChat (sometimes racing a cancel). True once paid. */
async function payStep(w, r, { token, path }, stats) {
  const { url, sim } = w;
  const roll = r();
  if (roll < 0.08) {
    stats.abandoned++; // the hold runs out
    return false;
  }
  if (roll < 0.16) {
    await call(url, 'POST', `${path}/cancel`, { token });
    stats.cancelled++;
    return false;
  }
  await sleep(r() * 500); // the fan looks at the order before paying
  const pay = await call(url, 'POST', `${path}/pay`, { token });
  if (pay.status !== 200) {
    stats.payRefused++;
    return false;
  }
  // A fan who pays and cancels at the same moment (the cancel guard must honour the payment).
  const race = roll < 0.2 ? call(url, 'POST', `${path}/cancel`, { token }) : undefined;
  try {
    sim.pay(pay.body.payParams);
    stats.paid++;
  } catch {
    stats.payRefused++; // closed or expired at WeChat: no money taken
    await race;
    return false;
  }
  await race;
  return true;
}

/** The fan's tickets scanned at the gate; some ask for their money back at the same time. */
async function atTheGate(w, i, o, after, stats) {
  const { url } = w;
  const { token, orderNo, path, session } = o;
  const tickets = await call(url, 'GET', '/api/v1/tickets', { token });
  const mine = (tickets.body?.items ?? []).filter((t) => t.orderNo === orderNo);
  // Each ticket is opened on the fan's phone (bound to its own key), which shows the code.
  const codes = await Promise.all(mine.map((t) => phoneCode(url, token, t.ticketId)));
  const scans = codes.filter(Boolean).map((qr) => gateScan(w, i, session.id, qr));
  // Some fans ask for their money back while staff scan them in: one of the two must lose.
  const refund =
    after < 0.4
      ? call(url, 'POST', `${path}/refund`, { token, body: { reason: 'chaos: at the gate' } })
      : undefined;
  const results = await Promise.all(scans);
  stats.checkins += results.filter((s) => s.body?.result === 'admitted').length;
  for (const s of results)
    tally(stats, 'checkin', { status: 0, body: { code: s.body?.result ?? code(s) ?? s.status } });
  if (refund) {
    tally(stats, 'refund', await refund);
    stats.refunds++;
  }
}

async function buyer(w, r, i, stats) {
  const { url } = w;
  const o = await holdOrder(w, r, i, stats);
  if (!o || !(await payStep(w, r, o, stats))) return;
  const { token, orderNo, path, session, r2 } = o;
  const after = r();
  if (after < 0.1) {
    // Refund the moment the order reads `paid`, before its tickets exist (issue 10, finding 1);
    // a fan whose first try is refused (still pending) tries again, as a fan would.
    await until(async () => {
      const res = await call(url, 'GET', path, { token }, 1);
      return res.body?.status === 'paid' || res.body?.status === 'ticketed';
    }, 20_000);
    const refund = await call(url, 'POST', `${path}/refund`, { token, body: { reason: 'chaos: at once' } });
    tally(stats, 'refund-at-once', refund);
    stats.refunds++;
    return;
  }
  const ticketed = await until(async () => {
    const res = await call(url, 'GET', path, { token }, 1);
    return res.body?.status === 'ticketed' ? res.body : undefined;
  }, 20_000);
  if (!ticketed || w.stop()) return;
  if (after < 0.3) return refundTicketed(url, path, token, ticketed, after < 0.2 ? r : undefined, stats);
  if (after < 0.6) {
    await atTheGate(w, i, o, after, stats);
  } else if (r2() < TRANSFER_SHARE) {
    await transferTicket(w, { token, orderNo, path, session, i, r: r2, stats });
  } else {
    // A third stream for exchanges (issue 16): the streams above draw what they always drew.
    const r3 = rng(((w.seed * 7919 + i) ^ 0x6a09e667) >>> 0);
    if (r3() < EXCHANGE_SHARE) await exchangeTicket(w, { token, orderNo, path, session, i, r: r3, stats });
  }
}

/**
 * A ticketed order refunded whole; or (r given, several tickets) per ticket (issue 16): one ticket
 * back, asked twice (the retry refunds nothing more), then sometimes the rest of the order, racing
 * WeChat's answer to the first.
 */
async function refundTicketed(url, path, token, ticketed, r, stats) {
  const refund = async (what, body) => {
    tally(stats, what, await call(url, 'POST', `${path}/refund`, { token, body }));
    stats.refunds++;
  };
  if (!r || ticketed.items.length < 2) return refund('refund', { reason: 'chaos' });
  const one = { reason: 'chaos: one ticket', ticketIds: [ticketed.items[0].ticketId] };
  await refund('refund-ticket', one);
  await refund('refund-ticket', one);
  if (r() < 0.5) await refund('refund', { reason: 'chaos: rest' });
}

function pick(r, ids, n) {
  const out = new Set();
  const hot = Math.max(n, Math.floor(ids.length * 0.3));
  while (out.size < n) out.add(ids[Math.floor(r() * (r() < 0.6 ? hot : ids.length))]);
  return [...out];
}
