// A show of its own for a part of the chaos run (the cancelled session, the waiting list): a
// venue of its own (so its seat ids are its own), a show, one session on sale now, the run's
// staff assigned to scan it. Returns the session id, the show id and its catalog.
import { dist } from '../lib.mjs';

export async function seedSideShow(deps, o) {
  const { insertVenue, insertShow, insertSession } = dist('catalog/admin-repo.js');
  const { blockSeats } = dist('catalog/layout.js');
  const { openSale } = dist('jobs/session-lifecycle.js');
  const { loadSessionCatalog } = dist('catalog/repo.js');
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
  const id = await insertSession(deps.db, {
    showId,
    startsAt: new Date(o.now.getTime() + o.startsInDays * 86_400_000),
    saleStartsAt: o.now,
    purchaseLimit: o.purchaseLimit,
    holdMinutes: 1,
    tiers: [
      { name: '看台', priceFen: o.seatFen },
      { name: '站区', priceFen: o.zoneFen, zoneName: o.zoneName },
    ],
  });
  await deps.db.query(
    "INSERT INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'chaos', UTC_TIMESTAMP(3))",
    [o.staffId, showId],
  );
  await openSale(deps, id, o.now);
  return { id, showId, cat: await loadSessionCatalog(deps.db, id) };
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
