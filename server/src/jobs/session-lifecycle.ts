import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import { sessionsInStatus, sessionsSaleStarted, sessionsStarted, transitionSession } from '../catalog/repo';
import type { CatalogService } from '../catalog/service';
import { SESSION_STATUS, type SessionCatalog } from '../catalog/types';

export interface LifecycleDeps {
  db: Db;
  catalog: CatalogService;
  inventory: InventoryService;
  log: Logger;
  /** Opens the session's waiting room with the sale, so nobody who joins right then waits in the pre-sale pool. */
  queue?: { tick(cat: SessionCatalog, now: Date): Promise<unknown> };
}

/** Preheats Redis from MySQL and opens the sale. Also used by the admin "open sale" action. */
export async function openSale(d: LifecycleDeps, sessionId: string, now: Date): Promise<void> {
  await transitionSession(d.db, sessionId, [SESSION_STATUS.PRESALE], SESSION_STATUS.ON_SALE);
  d.catalog.invalidate(sessionId);
  await d.inventory.rebuild(sessionId, now.getTime());
  const cat = await d.catalog.session(sessionId);
  if (cat?.queueEnabled) await d.queue?.tick(cat, now);
  d.log.info({ sessionId }, 'sale opened');
}

/**
 * One pass of the session lifecycle: open sales whose start time has come, end sessions that
 * have started, make sure every selling session is loaded in Redis, and keep sold-out in step
 * with what is left.
 */
export async function runLifecycle(d: LifecycleDeps, now: Date): Promise<string[]> {
  for (const s of await sessionsSaleStarted(d.db, SESSION_STATUS.PRESALE, now)) {
    await openSale(d, s.id, now);
  }
  const live = [SESSION_STATUS.PRESALE, SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT];
  for (const s of await sessionsStarted(d.db, live, now)) {
    if (await transitionSession(d.db, s.id, live, SESSION_STATUS.ENDED)) {
      await d.inventory.setOpen(s.id, false);
      d.log.info({ sessionId: s.id }, 'session ended');
    }
  }
  const selling = await sessionsInStatus(d.db, [SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT]);
  for (const s of selling) {
    const avail = await d.inventory.availability(s.id);
    if (avail === undefined || !(await d.inventory.isLoaded(s.id))) {
      await d.inventory.rebuild(s.id, now.getTime());
    } else if (avail <= 0 && s.status === SESSION_STATUS.ON_SALE) {
      await d.catalog.markSoldOut(s.id);
    } else if (avail > 0 && s.status === SESSION_STATUS.SOLD_OUT) {
      await d.catalog.markBackOnSale(s.id);
    }
  }
  return selling.map((s) => s.id);
}
