import type { RowDataPacket } from 'mysql2/promise';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { Metrics } from '../http/metrics';
import type { InventoryService } from './service';
import type { CatalogService } from '../catalog/service';

/**
 * Reconciles Redis with MySQL for each selling session: what Redis says is left against
 * capacity minus MySQL's live claims. Orders between their hold and their commit make small,
 * passing differences; a lasting one shows on /metrics (inventory_reconcile_difference) and in
 * the log, and a rebuild from MySQL clears it.
 */
export async function auditInventory(
  d: { db: Db; inventory: InventoryService; catalog: CatalogService; metrics: Metrics; log: Logger },
  sessionIds: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const id of sessionIds) {
    const cat = await d.catalog.session(id);
    const redisAvail = await d.inventory.availability(id);
    if (!cat || redisAvail === undefined) continue;
    const [[row]] = await d.db.query<RowDataPacket[]>(
      'SELECT (SELECT COUNT(*) FROM seat_claims WHERE session_id = ?) + (SELECT COUNT(*) FROM zone_claims WHERE session_id = ?) AS claimed',
      [id, id],
    );
    const diff = redisAvail - (cat.capacity - Number(row!.claimed));
    d.metrics.inventoryDifference.set({ session: id }, diff);
    if (diff !== 0) d.log.warn({ sessionId: id, diff }, 'Redis and MySQL disagree on what is left');
    out.set(id, diff);
  }
  return out;
}
