// The waiting list (候补) in the chaos run (issue 16): a small session of a show of its own is sold
// out by "fillers" (some never pay: their holds expire), then fans join the line of each sold-out
// tier (some over the per-user limit, refused), then fillers refund or cancel, freeing units the
// server offers in join order as pending orders; the fans pay some offers, decline some and let
// others lapse (the units pass on). Direct buyers of a tier with a line are refused meanwhile.
// Choices from the run's seed; the audit (audit.mjs) trusts none of the answers.
import { rng } from '../lib.mjs';
import { call, loginAs, tally, until } from './calls.mjs';
import { seedSideShow, sessionSummary } from './side-show.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PER_ORDER = 4;

/** The waiting-list session: a show and venue of its own, small, on sale now. */
export async function seedWaitlistSession(deps, { small, staffId, now }) {
  const seats = small ? 16 : 40;
  const zoneCapacity = small ? 12 : 32;
  const { id, showId, cat } = await seedSideShow(deps, {
    venueName: '混沌候补厅',
    section: 'C',
    rows: seats / 8,
    seatsPerRow: 8,
    zoneName: '候补站区',
    zoneCapacity,
    title: '混沌演出（候补）',
    startsInDays: 3,
    purchaseLimit: PER_ORDER,
    seatFen: 18_000,
    zoneFen: 26_000,
    staffId,
    now,
  });
  return {
    ...sessionSummary(id, showId, cat, zoneCapacity),
    seatTier: [...cat.seats.values()][0].tierId,
    zoneTier: [...cat.zones.values()][0].tierId,
  };
}

/** A filler buys PER_ORDER units (seats [k*4..] or zone units); most pay, some let the hold run out. */
async function fill(w, s, k, r, stats) {
  const { url } = w;
  const token = await loginAs(w, `chaos-${w.seed}-wf-${k}`);
  const seatOrders = s.seatIds.length / PER_ORDER;
  const body =
    k < seatOrders
      ? { sessionId: s.id, seatIds: s.seatIds.slice(k * PER_ORDER, (k + 1) * PER_ORDER) }
      : { sessionId: s.id, zoneId: s.zoneId, quantity: PER_ORDER };
  const hold = await call(url, 'POST', '/api/v1/orders', {
    token,
    body,
    headers: { 'idempotency-key': `chaos-wf-${w.seed}-${k}` },
  });
  tally(stats, 'wl-fill', hold);
  if (hold.status !== 201) return undefined;
  const path = `/api/v1/orders/${hold.body.orderNo}`;
  const f = { token, path, paid: false };
  if (r() < 0.2) return f; // never paid: the hold expires and its units come back
  const pay = await call(url, 'POST', `${path}/pay`, { token });
  if (pay.status !== 200) return f;
  try {
    w.sim.pay(pay.body.payParams);
    f.paid = true;
  } catch {
    /* closed at WeChat */
  }
  return f;
}

/** A fan in line: joins, then answers the offer (pay, decline, or let it lapse) until the deadline. */
async function wait(w, s, j, r, stats, deadline) {
  const { url } = w;
  const token = await loginAs(w, `chaos-${w.seed}-wl-${j}`);
  const tierId = r() < 0.5 ? s.seatTier : s.zoneTier;
  const quantity = r() < 0.75 ? 1 : 2;
  const join = await call(url, 'POST', `/api/v1/sessions/${s.id}/waitlist`, {
    token,
    body: { tierId, quantity },
  });
  tally(stats, 'wl-join', join);
  if (join.status !== 201) return;
  stats.wlJoined++;
  // Some fans also ask for the other tier, beyond the per-user limit: refused.
  if (r() < 0.2) {
    const other = tierId === s.seatTier ? s.zoneTier : s.seatTier;
    const over = await call(url, 'POST', `/api/v1/sessions/${s.id}/waitlist`, {
      token,
      body: { tierId: other, quantity: PER_ORDER },
    });
    tally(stats, 'wl-join-over', over);
  }
  const choice = r();
  const offer = await until(
    async () => {
      if (Date.now() > deadline()) return 'late';
      const me = await call(url, 'GET', '/api/v1/me/waitlist', { token }, 1);
      const e = (me.body?.items ?? []).find((x) => x.id === join.body.id);
      return e && e.state !== 'waiting' ? e : undefined;
    },
    600_000,
    500,
  );
  if (!offer || offer === 'late' || offer.state !== 'offered') return;
  stats.wlOffered++;
  if (choice < 0.6) {
    const pay = await call(url, 'POST', `/api/v1/orders/${offer.orderNo}/pay`, { token });
    tally(stats, 'wl-pay', pay);
    if (pay.status !== 200) return;
    try {
      w.sim.pay(pay.body.payParams);
      stats.wlPaid++;
    } catch {
      /* lapsed meanwhile */
    }
  } else if (choice < 0.75) {
    tally(stats, 'wl-decline', await call(url, 'POST', `/api/v1/waitlist/${offer.id}/decline`, { token }));
  } else stats.wlLetLapse++; // the offer lapses unpaid; its units pass on
}

/**
 * The waiting-list scenario, beside the buyers. `deadline()`: when the fans in line stop
 * answering offers (later offers lapse by themselves). Returns when every fan is done.
 */
export async function runWaitlist(w, { s, small, stats, deadline, log }) {
  const r = rng((w.seed ^ 0x3a17c0de) >>> 0);
  const seatOrders = s.seatIds.length / PER_ORDER;
  const fillers = seatOrders + s.zoneCapacity / PER_ORDER;
  // A fan whose requests all failed (a login during an outage) gives up, as a buyer does.
  const safe = (p) =>
    p.catch((e) => tally(stats, 'wl-error', { status: 0, body: { code: String(e.message).slice(0, 40) } }));
  const filled = await Promise.all(
    Array.from({ length: fillers }, (_, k) => safe(fill(w, s, k, rng((w.seed * 31 + k) >>> 0), stats))),
  );
  log(`waitlist: ${filled.filter((f) => f?.paid).length} of ${fillers} fillers paid`);
  const fans = small ? 24 : 80;
  const streams = Array.from({ length: fans }, (_, j) => rng((w.seed * 131 + j) >>> 0));
  const inLine = [];
  for (let j = 0; j < fans; j++) {
    inLine.push(safe(wait(w, s, j, streams[j], stats, deadline)));
    await sleep(100 + r() * 200); // fans join one after another: the line has an order
  }
  // A direct buyer of a tier with a line: refused (WAITLIST_FIRST) or, with no line, sold.
  await safe(
    loginAs(w, `chaos-${w.seed}-wd`).then(async (direct) =>
      tally(
        stats,
        'wl-direct',
        await call(url(w), 'POST', '/api/v1/orders', {
          token: direct,
          body: { sessionId: s.id, zoneId: s.zoneId, quantity: 1 },
        }),
      ),
    ),
  );
  // Fillers give units back: refunds (whole or one ticket), a paid order's... while fans wait.
  for (const f of filled.filter((x) => x?.paid)) {
    const roll = r();
    if (roll < 0.3) continue;
    await until(
      async () => (await call(url(w), 'GET', f.path, { token: f.token }, 1)).body?.status === 'ticketed',
      20_000,
      500,
    );
    const o = await call(url(w), 'GET', f.path, { token: f.token }, 1);
    const body =
      roll < 0.65
        ? { reason: 'chaos: wl whole' }
        : { reason: 'chaos: wl one', ticketIds: [o.body?.items?.[0]?.ticketId].filter(Boolean) };
    tally(stats, 'wl-refund', await call(url(w), 'POST', `${f.path}/refund`, { token: f.token, body }));
    await sleep(300 + r() * 1500);
  }
  await Promise.all(inLine);
}

const url = (w) => w.url;
