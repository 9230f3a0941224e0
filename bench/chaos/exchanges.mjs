// Exchanges (改签) in the chaos run (issue 16): a ticketed buyer moves a ticket to another seat
// or zone unit of the same session, or to the show's second session. Seat to zone is upward (the
// difference paid through the simulator, or left unpaid to expire), zone to seat or to the
// cheaper second session downward (the difference refunded on the original payment); some fans
// race each other for one target seat, some ask for the old ticket's money while the exchange
// waits, and the old ticket's code is shown at the gate after it was given up. The audit
// (audit.mjs) trusts none of the answers: they are only tallied.
import { openSession } from '../lib.mjs';
import { call, gateScan, phoneCode, tally, tallyScan } from './calls.mjs';
import { sessionSummary } from './side-show.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** How long the first of two racers waits for the second before going alone. */
const RACE_WAIT_MS = 12_000;
/** Upward exchanges whose difference the fan never pays (the exchange order expires). */
const UNPAID_SHARE = 0.2;

/** Fans waiting for a rival for one target seat (one rendezvous per session). */
const racers = [];

/**
 * A target seat two fans exchange into at the same moment: the first picks it and waits a few
 * seconds for a second fan, who takes the same seat; both then ask at once.
 */
async function raceSeat(r, to) {
  const rival = racers.findIndex((x) => x.sessionId === to.id);
  if (rival >= 0) {
    const [x] = racers.splice(rival, 1);
    x.go();
    return { seatId: x.seatId, raced: true };
  }
  const seatId = to.seatIds[Math.floor(r() * to.seatIds.length)];
  let go;
  const met = new Promise((res) => (go = res));
  const me = { sessionId: to.id, seatId, go };
  racers.push(me);
  const raced = await Promise.race([met.then(() => true), sleep(RACE_WAIT_MS).then(() => false)]);
  if (!raced) racers.splice(racers.indexOf(me), 1);
  return { seatId, raced };
}

/** What to exchange into: the zone (upward from a seat), a seat (downward from the zone), a race. */
async function target(w, r, session, ticket) {
  const others = session === w.session && w.session2 ? [w.session2] : [];
  const to = r() < 0.3 && others.length ? others[0] : session;
  const roll = r();
  if (roll < 0.35) {
    // Racers meet in their own session (more of them meet there).
    const { seatId, raced } = await raceSeat(r, session);
    return {
      to: session,
      body: { sessionId: session.id, seatIds: [seatId] },
      what: raced ? 'exchange-race' : 'exchange-seat',
    };
  }
  if (ticket.seatId && roll < 0.7)
    return { to, body: { sessionId: to.id, zoneId: to.zoneId }, what: 'exchange-zone' };
  const hot = Math.max(1, Math.floor(to.seatIds.length * 0.5));
  const seatId = to.seatIds[Math.floor(r() * hot)];
  return { to, body: { sessionId: to.id, seatIds: [seatId] }, what: 'exchange-seat' };
}

/**
 * One buyer's exchange. `o`: {token, orderNo, path, session, i, r (the buyer's exchange stream),
 * stats}.
 */
export async function exchangeTicket(w, o) {
  const { url } = w;
  const { token, orderNo, path, session, i, r, stats } = o;
  const list = await call(url, 'GET', '/api/v1/tickets', { token });
  const mine = (list.body?.items ?? []).filter((t) => t.orderNo === orderNo && t.status === 'valid');
  if (!mine.length) return;
  const ticket = mine[Math.floor(r() * mine.length)];
  // Half the fans had opened the old ticket on their phone: that code must die with the exchange.
  const oldCode = r() < 0.5 ? await phoneCode(url, token, ticket.ticketId) : '';
  const { to, body, what } = await target(w, r, session, ticket);
  const x = await call(url, 'POST', `${path}/exchange`, {
    token,
    body: { ticketIds: [ticket.ticketId], ...body },
    headers: { 'idempotency-key': `chaos-x-${w.seed}-${i}` },
  });
  tally(stats, what, x);
  if (x.status !== 201) return;
  stats.exchangeAsked++;
  let ex = x.body;
  if (ex.status === 'pending') ex = await payDifference(w, { ...o, ex, ticket });
  if (ex?.status !== 'done') return;
  stats.exchanges++;
  if (oldCode) tallyScan(stats, 'checkin-exchanged', await gateScan(w, i, session.id, oldCode));
  const fresh = ex.newTicketIds?.[0];
  if (!fresh || r() < 0.5) return;
  const qr = await phoneCode(url, token, fresh);
  if (!qr) return;
  const s = await gateScan(w, i, to.id, qr);
  tallyScan(stats, 'checkin-new', s);
  if (s.body?.result === 'admitted') stats.checkins++;
}

/**
 * An upward exchange: the fan pays the difference (sometimes asking for the old ticket's money
 * meanwhile, which must be refused), or never pays it. Resolves to the exchange once settled.
 */
async function payDifference(w, o) {
  const { url } = w;
  const { token, path, r, stats, ex, ticket } = o;
  if (r() < UNPAID_SHARE) {
    stats.exchangeUnpaid++;
    return ex;
  }
  const xpath = `/api/v1/orders/${ex.orderNo}`;
  const pay = await call(url, 'POST', `${xpath}/pay`, { token });
  tally(stats, 'exchange-pay', pay);
  if (pay.status !== 200) return ex;
  const refund =
    r() < 0.3
      ? call(url, 'POST', `${path}/refund`, {
          token,
          body: { reason: 'chaos: exchanging', ticketIds: [ticket.ticketId] },
        })
      : undefined;
  try {
    w.sim.pay(pay.body.payParams);
  } catch {
    tally(stats, 'exchange-pay', { status: 0, body: { code: 'closed at WeChat' } });
  }
  if (refund) tally(stats, 'refund-exchanging', await refund);
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const l = await call(url, 'GET', `${path}/exchanges`, { token }, 1);
    const mine = (l.body?.items ?? []).find((e) => e.exchangeId === ex.exchangeId);
    if (mine && mine.status !== 'pending') return mine;
    await sleep(500);
  }
  return undefined;
}

/** The show allows exchanges (改签), set as an organiser does: the admin API. */
export async function allowExchanges(url, adminToken, showId) {
  const body = { exchangeRules: { allowed: true, cutoffMinutes: 120 } };
  const r = await call(url, 'PATCH', `/api/v1/admin/shows/${showId}`, { token: adminToken, body });
  if (r.status !== 200) throw new Error(`exchange rules ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * The main show's second session (same venue, so the same seat and zone ids, other prices):
 * where cross-session exchanges go. Starts a day after the first.
 */
export async function seedSecondSession(deps, main, now) {
  const [[zone]] = await deps.db.query('SELECT name FROM venue_zones WHERE id = ?', [main.zoneId]);
  const { id, cat } = await openSession(deps, {
    showId: main.showId,
    now,
    startsAt: new Date(now.getTime() + 2 * 86_400_000),
    purchaseLimit: 4,
    holdMinutes: 1,
    seatFen: 30_000,
    zoneName: zone.name,
    zoneTier: '内场',
    zoneFen: 68_000,
  });
  return sessionSummary(id, main.showId, cat, main.zoneCapacity);
}
