import type { AppDeps } from './wiring';
import { SessionChangeService } from './session-changes/service';
import { TransferService } from './transfers/service';
import { ReservationService } from './comp/reservations';
import { CompService } from './comp/service';

// The stateless services built per app from the dependencies (wiring.ts createDeps): their state
// is in MySQL, so the admin routes, the fans' routes and the jobs each build their own.

/** Ticket transfers (转赠) between fans: stateless over MySQL and the ticket keys. */
export function transfersOf(d: AppDeps): TransferService {
  return new TransferService({
    db: d.db,
    keys: d.ticketKeys,
    vault: d.vault,
    inventory: d.inventory,
    log: d.log,
  });
}

/**
 * Cancelled and postponed sessions and their resumable refund run: the refunds service's one
 * path, the orders' cancel guard. Stateless (the run's state is in MySQL), so the admin routes
 * and the job each build their own.
 */
export function sessionChangesOf(d: AppDeps): SessionChangeService {
  return new SessionChangeService({
    ...d,
    refundOrder: (o) => d.refunds.refundOrder(o),
    cancelPending: (id, now) => d.orders.cancelForSession(id, now),
    voidComp: (id, reason, now, also) => compOf(d).comps.void(SYSTEM_ACTOR, id, { reason }, now, also),
    refundsPerS: d.config.recovery.sessionCancelRefundsPerS,
  });
}

/** Who voids a cancelled session's comp tickets, in the audit log. */
const SYSTEM_ACTOR = { adminId: null as unknown as string, username: 'system:session-cancel', ip: '' };

/** Reserved units and complimentary tickets (comp/): stateless, built per app like the above. */
export function compOf(d: AppDeps): { reservations: ReservationService; comps: CompService } {
  // Complimentary orders take their ids from the purchase path's generator (one lease per node).
  const ids = { next: (nowMs?: number) => d.orders.newOrderId(nowMs) };
  const deps = { db: d.db, log: d.log, catalog: d.catalog, inventory: d.inventory, vault: d.vault, ids };
  return { reservations: new ReservationService(deps), comps: new CompService(deps) };
}
