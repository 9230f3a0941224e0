// A show of its own for a part of the chaos run (the cancelled session, the waiting list): a
// venue of its own (so its seat ids are its own), a show, one session on sale now, the run's
// staff assigned to scan it. Returns the session id, the show id and its catalog.
import { dist, openSession } from '../lib.mjs';

export async function seedSideShow(deps, o) {
  const { insertVenue, insertShow } = dist('catalog/admin-repo.js');
  const { blockSeats } = dist('catalog/layout.js');
  const venueId = await insertVenue(deps.db, {
    name: o.venueName,
    city: '上海',
    seats: blockSeats({
      section: o.section,
      rows: o.rows,
      seatsPerRow: o.seatsPerRow,
      originX: 0,
      originY: 0,
    }),
    zones: [{ name: o.zoneName, capacity: o.zoneCapacity }],
  });
  const showId = await insertShow(deps.db, {
    title: o.title,
    venueId,
    refundRules: [{ hoursBeforeStart: 12, feePercent: 5 }],
  });
  const { id, cat } = await openSession(deps, {
    showId,
    now: o.now,
    startsAt: new Date(o.now.getTime() + o.startsInDays * 86_400_000),
    purchaseLimit: o.purchaseLimit,
    holdMinutes: 1,
    seatFen: o.seatFen,
    zoneName: o.zoneName,
    zoneTier: '站区',
    zoneFen: o.zoneFen,
  });
  await deps.db.query(
    "INSERT INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'chaos', UTC_TIMESTAMP(3))",
    [o.staffId, showId],
  );
  return { id, showId, cat };
}

/** What the run's buyers and audits know of a seeded session: its seats, its one zone, its size. */
export function sessionSummary(id, showId, cat, zoneCapacity) {
  return {
    id,
    showId,
    seatIds: [...cat.seats.keys()],
    zoneId: [...cat.zones.keys()][0],
    zoneCapacity,
    capacity: cat.capacity,
  };
}
