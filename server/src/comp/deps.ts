import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { IdentityVault } from '../attendees/crypto';
import type { SessionCatalog } from '../catalog/types';
import type { InventoryService } from '../inventory/service';

/** What reservations and comp tickets need of the rest of the app (wired in wiring.ts). */
export interface CompDeps {
  db: Db;
  log: Logger;
  catalog: { session(sessionId: string): Promise<SessionCatalog | undefined> };
  inventory: Pick<InventoryService, 'reserve' | 'unreserve' | 'markCompId'>;
  vault: IdentityVault;
  /** Order ids (orders/ids.ts IdGenerator). */
  ids: { next(nowMs?: number): string };
}
