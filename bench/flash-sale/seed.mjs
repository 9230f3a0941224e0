// Seeds the tour: `sessions` sessions of one show, each with 10,000 seats and a 10,000-unit
// zone; session 1 is the hot one. Users are inserted in bulk and given signed tokens.
import { dist, openSession } from '../lib.mjs';

const { insertVenue, insertShow } = dist('catalog/admin-repo.js');
const { blockSeats } = dist('catalog/layout.js');

export async function seedTour(deps, { sessions, seatsPerSession, zoneCapacity }) {
  const perSection = seatsPerSession / 4;
  const seats = ['A', 'B', 'C', 'D'].flatMap((section, i) =>
    blockSeats({
      section,
      rows: perSection / 50,
      seatsPerRow: 50,
      originX: (i % 2) * 560,
      originY: Math.floor(i / 2) * 700,
    }),
  );
  const venueId = await insertVenue(deps.db, {
    name: '压测体育场',
    city: '北京',
    seats,
    zones: [{ name: '内场站席', capacity: zoneCapacity }],
  });
  const showId = await insertShow(deps.db, { title: '压测巡演', venueId });
  const now = new Date();
  const out = [];
  for (let i = 0; i < sessions; i++) {
    const { id: sessionId, cat } = await openSession(deps, {
      showId,
      now,
      startsAt: new Date(now.getTime() + (30 + i) * 86_400_000),
      purchaseLimit: 4,
      holdMinutes: 15,
      seatFen: 68_000,
      zoneName: '内场站席',
      zoneFen: 98_000,
    });
    out.push({
      id: sessionId,
      seatIds: [...cat.seats.keys()],
      zoneId: [...cat.zones.keys()][0],
      capacity: cat.capacity,
    });
  }
  return out;
}

export async function seedUsers(deps, n) {
  const tag = `b${Date.now().toString(36)}`;
  for (let i = 0; i < n; i += 10_000) {
    const rows = [];
    for (let j = i; j < Math.min(n, i + 10_000); j++) rows.push([`${tag}_${j}`]);
    await deps.db.query('INSERT INTO users (openid) VALUES ?', [rows]);
  }
  const [rows] = await deps.db.query('SELECT id FROM users WHERE openid LIKE ? ORDER BY id', [`${tag}\\_%`]);
  const ids = rows.map((r) => String(r.id));
  const tokens = [];
  for (const id of ids) tokens.push(await deps.tokens.issue({ userId: id, roles: ['fan'] }));
  return tokens;
}
