import { serverDist } from './paths.mjs';

const DAY = 86_400_000;

/** A compact arena (about 1,300 seats in three sections): the server's demo arena. */
export function smallVenueSeats() {
  return serverDist('seed/demo.js').demoArenaSeats();
}

/** Exactly 10,000 seats: three floor blocks and seven curved stand blocks of 20 x 50. */
export function bigVenueSeats() {
  const { blockSeats } = serverDist('catalog/layout.js');
  const seats = [];
  const block = (section, originX, originY, curve = 0) =>
    seats.push(...blockSeats({ section, rows: 20, seatsPerRow: 50, originX, originY, curve }));
  ['内场A区', '内场B区', '内场C区'].forEach((s, i) => block(s, 280 + i * 530, 60));
  ['看台1区', '看台2区', '看台3区', '看台4区'].forEach((s, i) => block(s, i * 530, 380, 24));
  ['看台5区', '看台6区', '看台7区'].forEach((s, i) => block(s, 280 + i * 530, 700, 30));
  return seats;
}

/**
 * A show with one reserved session on sale (tiers by section) and optionally a zone session.
 * Returns the ids. `now` decides dates: the show is 30 days out, the sale opened now.
 * `opts.standing`: the reserved session also sells the venue's 内场站席 (a mixed session, ¥280).
 */
export async function seedShow(deps, opts = {}) {
  const { insertVenue, insertShow, insertSession, seatIdsOfVenue } = serverDist('catalog/admin-repo.js');
  const { openSale } = serverDist('jobs/session-lifecycle.js');
  const now = opts.now ?? new Date();
  const seats = opts.seats ?? smallVenueSeats();
  const venueId = await insertVenue(deps.db, {
    name: opts.venueName ?? '梅赛德斯-奔驰文化中心',
    city: '上海',
    address: '浦东新区世博大道1200号',
    seats,
    zones:
      opts.zones || opts.standing
        ? [
            { name: '内场站席', capacity: 2000 },
            { name: '看台自由席', capacity: 3000 },
          ]
        : [],
  });
  const showId = await insertShow(deps.db, {
    title: opts.title ?? '星河巡回演唱会 2027 · 上海站',
    venueId,
    description: '华语流行天团时隔三年的全新巡演，三小时不间断现场。',
    posterUrl: null,
    refundRules: serverDist('seed/demo.js').DEMO_REFUND_RULES,
  });
  const all = await seatIdsOfVenue(deps.db, venueId);
  const front = all.filter((s) => s.section.startsWith('内场') && Number(s.row) <= 4).map((s) => s.id);
  const floor = all.filter((s) => s.section.startsWith('内场') && Number(s.row) > 4).map((s) => s.id);
  const startsAt = new Date(Math.floor(now.getTime() / DAY + 30) * DAY + 11.5 * 3600_000);
  const sessionId = await insertSession(deps.db, {
    showId,
    startsAt,
    saleStartsAt: now,
    holdMinutes: opts.holdMinutes ?? 15,
    purchaseLimit: opts.purchaseLimit ?? 4,
    realName: opts.realName ?? false,
    // The waiting room (its queue-admit job lets queueRatePerMin fans in a minute).
    queueEnabled: opts.queueEnabled ?? false,
    queueRatePerMin: opts.queueRatePerMin ?? null,
    tiers: [
      { name: 'VIP 内场', priceFen: 188_000, color: '#e4393c', seatIds: front },
      { name: '内场', priceFen: 128_000, color: '#ff8a00', seatIds: floor },
      { name: '看台', priceFen: 68_000, color: '#2f7cf6' },
      ...(opts.standing ? [{ name: '内场站席', priceFen: 28_000, zoneName: '内场站席' }] : []),
    ],
  });
  await openSale(deps, sessionId, now);
  let zoneSessionId;
  if (opts.zones) {
    zoneSessionId = await insertSession(deps.db, {
      showId,
      startsAt: new Date(startsAt.getTime() + DAY),
      saleStartsAt: now,
      purchaseLimit: opts.purchaseLimit ?? 4,
      tiers: [
        { name: '内场站席', priceFen: 98_000, color: '#ff8a00', zoneName: '内场站席' },
        { name: '看台自由席', priceFen: 48_000, color: '#2f7cf6', zoneName: '看台自由席' },
      ],
    });
    await openSale(deps, zoneSessionId, now);
  }
  return { venueId, showId, sessionId, zoneSessionId, seatCount: seats.length };
}

/** A show whose sale starts later (for the countdown on the home page). */
export async function seedUpcomingShow(deps, opts = {}) {
  const { insertVenue, insertShow, insertSession } = serverDist('catalog/admin-repo.js');
  const { blockSeats } = serverDist('catalog/layout.js');
  const now = opts.now ?? new Date();
  const venueId = await insertVenue(deps.db, {
    name: opts.venueName ?? '国家体育馆',
    city: '北京',
    seats: blockSeats({ section: 'A区', rows: 5, seatsPerRow: 20, originX: 0, originY: 0 }),
  });
  const showId = await insertShow(deps.db, {
    title: opts.title ?? '午夜回声 2027 巡回演唱会 · 北京站',
    venueId,
    posterUrl: null,
  });
  await insertSession(deps.db, {
    showId,
    startsAt: new Date(now.getTime() + 40 * DAY),
    saleStartsAt: new Date(now.getTime() + 2 * DAY + 3 * 3600_000),
    tiers: [{ name: '看台', priceFen: 38_000 }],
  });
  return { showId };
}
