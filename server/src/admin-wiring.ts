import type Router from '@koa/router';
import type { Logger } from 'pino';
import type { CacheInvalidation } from './cache/invalidation';
import type { RefundService } from './refunds/service';
import type { RiskService } from './risk/service';
import type { CatalogService } from './catalog/service';
import { SeatVersions } from './inventory/seat-delta';
import { SeatMapService } from './inventory/seatmap';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db/pool';
import { requireAuth, TokenService } from './http/auth';
import type { InventoryService } from './inventory/service';
import type { ScriptedRedis } from './redis/scripts';
import { AuditService, auditRoutes } from './audit/routes';
import { AdminAccountService } from './auth/admin/accounts';
import { LoginLimiter } from './auth/admin/limiter';
import { authRoutes, requireAdmin } from './auth/admin/routes';
import { AdminAuthService } from './auth/admin/service';
import { dashboardRoutes } from './ops/dashboard/routes';
import { DashboardService } from './ops/dashboard/service';
import { orderRoutes } from './orders/admin/routes';
import { AdminOrderService } from './orders/admin/service';
import { sessionRoutes } from './catalog/sessions/routes';
import { SessionService } from './catalog/sessions/service';
import { showRoutes } from './catalog/shows/routes';
import { ShowService } from './catalog/shows/service';
import { spaRoutes } from './http/admin/spa';
import { staffRoutes, staffSelfRoutes } from './checkin/staff/routes';
import { StaffService } from './checkin/staff/service';
import { venueRoutes } from './catalog/venues/routes';
import { riskRoutes } from './risk/admin/routes';
import { RiskAdminService } from './risk/admin/service';
import { IdentityVault } from './attendees/crypto';
import { Keys } from './redis/keys';
import { VenueService } from './catalog/venues/service';
import { opsRoutes } from './ops/routes';
import { OpsService, type OpsDeps } from './ops/service';
import { clientOf } from './risk/client';
import { degradeRoutes } from './degrade/routes';
import { reportRoutes } from './reports/routes';
import { ReportService } from './reports/service';
import type { DegradeService } from './degrade/service';
import { sessionChangeRoutes } from './session-changes/routes';
import type { SessionChangeService } from './session-changes/service';
import { transferAdminRoutes } from './transfers/routes';
import type { TransferService } from './transfers/service';
import { waitlistAdminRoutes } from './waitlist/routes';
import type { WaitlistService } from './waitlist/service';

import { compAdminRoutes } from './comp/routes';
import type { ReservationService } from './comp/reservations';
import type { CompService } from './comp/service';
import { adminBodyParser } from './http/admin/http';

export interface AdminServices {
  auth: AdminAuthService;
  accounts: AdminAccountService;
  audit: AuditService;
  venues: VenueService;
  shows: ShowService;
  sessions: SessionService;
  dashboard: DashboardService;
  orders: AdminOrderService;
  staff: StaffService;
  reports: ReportService;
}

export interface AdminDepsIn {
  config: Config;
  log: Logger;
  clock: Clock;
  db: Db;
  /** Reads that may be a second stale (dashboard, order lists, exports): the replica when fresh. */
  readDb?: Db;
  redis: ScriptedRedis;
  catalog: CatalogService;
  inventory: InventoryService;
}

/** Verified tokens the admin side remembers (TokenService's cache). */
const ADMIN_VERIFIED_TOKENS_MAX = 1_000;

/** Builds the admin side and creates the first admin account if there is none yet. */
export async function createAdminServices(d: AdminDepsIn): Promise<AdminServices> {
  const cfg = d.config.admin;
  const limiter = new LoginLimiter(d.redis, d.config.redisKeyPrefix, cfg);
  // The app's own token format and secret (built like AppDeps.tokens), so fan and staff tokens
  // are recognised on admin routes and refused with 403 rather than mistaken for garbage.
  // A few operators, not a waiting-room crowd: remember few verified tokens (the fans' side keeps
  // up to 200,000, ~60 MB).
  const tokens = new TokenService(d.config.authSecret, d.config.authTokenTtlS, ADMIN_VERIFIED_TOKENS_MAX);
  const auth = new AdminAuthService(d.db, tokens, limiter, cfg, d.log);
  await auth.bootstrap(d.clock.now());
  // The admin's seat map reads live states uncached: an organiser checks, a crowd does not.
  const seatmaps = new SeatMapService(
    d.catalog,
    d.inventory,
    0,
    new SeatVersions(d.redis, new Keys(d.config.redisKeyPrefix)),
  );
  return {
    auth,
    accounts: new AdminAccountService(d.db),
    audit: new AuditService(d.db),
    venues: new VenueService(d.db),
    shows: new ShowService(d.db, cfg, (ids) => ids.forEach((id) => d.catalog.invalidate(id))),
    sessions: new SessionService({
      db: d.db,
      catalog: d.catalog,
      inventory: d.inventory,
      seatmaps,
      log: d.log,
      settleMs: d.config.rebuildSettleMs,
    }),
    dashboard: new DashboardService(
      d.readDb ?? d.db,
      d.inventory,
      d.redis,
      new Keys(d.config.redisKeyPrefix),
    ),
    orders: new AdminOrderService(d.db, personHasher(d.config.idSecret), d.readDb ?? d.db),
    staff: new StaffService(d.db),
    reports: new ReportService(d.db, d.readDb ?? d.db, d.config.wechat.payFeeRateBp),
  };
}

/** Finds orders by ID number or phone through the purchase path's keyed hashes (same secret). */
function personHasher(secret: string) {
  const vault = new IdentityVault(secret);
  return {
    idHashes: (idNumber: string) => [vault.idHash(idNumber)],
    phoneHash: (phone: string) => vault.phoneHash(phone),
  };
}

/** What the admin routers use of the app (the app's dependencies have all of it). */
export type AdminRouterDeps = AdminDepsIn &
  OpsDeps & {
    admin: AdminServices;
    refunds: RefundService;
    vault: IdentityVault;
    caches: CacheInvalidation;
    tokens: TokenService;
    risk: RiskService;
    degrade: DegradeService;
    sessionChanges: SessionChangeService;
    transfers: TransferService;
    comp: { reservations: ReservationService; comps: CompService };
    waitlist: WaitlistService;
  };

/** Every admin router, the fan-side staff routes and the admin page itself. */
export function adminRouters(d: AdminRouterDeps): Router[] {
  const a = d.admin;
  const body = adminBodyParser({
    largeBytes: d.config.admin.bodyLimitBytes,
    smallBytes: d.config.bodyLimitBytes,
  });
  const auth = requireAdmin(a.auth, d.clock, body);
  return [
    authRoutes(a.auth, a.accounts, auth, d.clock),
    auditRoutes(a.audit, auth),
    venueRoutes(a.venues, auth, d.clock),
    showRoutes(a.shows, auth, d.clock),
    sessionRoutes(a.sessions, auth, d.clock),
    sessionChangeRoutes(d.sessionChanges, auth, d.clock),
    transferAdminRoutes(d.transfers, auth, d.clock),
    compAdminRoutes(d.comp.reservations, d.comp.comps, auth, d.clock),
    waitlistAdminRoutes(d.waitlist, auth),
    dashboardRoutes(a.dashboard, auth, d.clock),
    orderRoutes(a.orders, d.refunds, auth, d.clock),
    reportRoutes(a.reports, auth, d.clock),
    staffRoutes(a.staff, auth, d.clock),
    // Built here: it edits what the app's RiskService enforces and tells every instance to reload.
    riskRoutes(
      new RiskAdminService(d.db, d.vault, () => d.caches.invalidate('blocklist', '*')),
      auth,
      d.clock,
    ),
    opsRoutes(new OpsService(d), auth, d.clock),
    degradeRoutes(d.degrade, auth, d.clock),
    staffSelfRoutes(a.staff, requireAuth(d.tokens), d.clock, (userId, ctx) =>
      d.risk.guardWrite(userId, clientOf(ctx)),
    ),
    spaRoutes(d.config.admin, d.db),
  ];
}
