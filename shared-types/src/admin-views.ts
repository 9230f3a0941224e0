import type { Exchange } from './exchange';
/** Response shapes of the admin API (its request schemas are in admin.ts). */
import type { OrderStatus, RefundTier, SeatPosition, SessionStatus, Tier, VenueLocation } from './api';
import type { AdminRole, SeatSpecInput } from './admin';
import type { SalesChannel } from './reports';
import type { ShowCategory } from './category';

export interface AdminAccount {
  id: string;
  username: string;
  displayName: string;
  roles: AdminRole[];
  disabled: boolean;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface AdminLoginResult {
  token: string;
  expiresAt: string;
  admin: AdminAccount;
}

export interface VenueSummary extends VenueLocation {
  seatCount: number;
  zoneCount: number;
  sections: string[];
  sessionCount: number;
  createdAt: string;
}

export type VenueSeat = SeatPosition;

export interface VenueDetail extends VenueSummary {
  seats: VenueSeat[];
  zones: { id: string; name: string; capacity: number }[];
}

export interface ParsedLayout {
  seats: SeatSpecInput[];
  zones: { name: string; capacity: number }[];
}

export interface AdminShowSummary {
  id: string;
  title: string;
  category: ShowCategory;
  venueId: string;
  venueName: string;
  posterUrl: string | null;
  sessionCount: number;
  firstStartsAt: string | null;
  statuses: SessionStatus[];
  createdAt: string;
}

export interface AdminShowDetail extends AdminShowSummary {
  description: string;
  refundRules: RefundTier[];
  showPurchaseLimit: number | null;
  /** 改签 rules (absent on servers before migration 0031). */
  exchangeRules?: { allowed: boolean; cutoffMinutes: number };
  sessions: AdminSessionSummary[];
}

export interface AdminTier extends Tier {
  seatCount: number;
  zoneName: string | null;
  capacity: number;
  /** Units in live orders (pending, paid or ticketed): such a tier's price is locked. */
  claimed: number;
}

export interface AdminSessionSummary {
  id: string;
  showId: string;
  startsAt: string;
  saleStartsAt: string;
  status: SessionStatus;
  holdMinutes: number;
  purchaseLimit: number;
  realName: boolean;
  queueEnabled: boolean;
  queueRatePerMin: number | null;
  /** Fans cannot move a ticket to another phone this many minutes before the start (null: always can). */
  rebindFreezeMinutes: number | null;
  capacity: number;
  tiers: AdminTier[];
}

export interface AdminSessionDetail extends AdminSessionSummary {
  showTitle: string;
  venueId: string;
  /** seatId -> tierId for every seat on sale. */
  seatTiers: Record<string, string>;
  claimedSeatIds: string[];
}

export interface TierSales {
  tierId: string;
  name: string;
  priceFen: number;
  capacity: number;
  sold: number;
  held: number;
  /** Held back from public sale (comp tickets included). */
  reserved: number;
  available: number;
}

export interface MinutePoint {
  minute: string;
  orders: number;
  payments: number;
}

export interface SessionDashboard {
  sessionId: string;
  status: SessionStatus;
  generatedAt: string;
  /**
   * sold/held count sales only; reserved: units held back from public sale (comp tickets issued
   * from them included); comp: live complimentary tickets (no money, counted apart).
   */
  totals: { capacity: number; sold: number; held: number; available: number; reserved: number; comp: number };
  tiers: TierSales[];
  perMinute: MinutePoint[];
  /** Sales orders only; complimentary orders are `comp` (live ones and their tickets). */
  orders: { total: number; pending: number; paid: number; cancelled: number; refunded: number };
  comp: { orders: number; tickets: number };
  /** Paid orders over orders that are no longer pending; null before any order settled. */
  paymentSuccessRate: number | null;
  revenueFen: number;
  refundedFen: number;
  queue: { enabled: boolean; length: number | null };
  seatStates: { held: string[]; sold: string[] };
}

export interface AdminOrderRow {
  orderNo: string;
  status: OrderStatus;
  amountFen: number;
  quantity: number;
  createdAt: string;
  paidAt: string | null;
  buyer: { userId: string; nickname: string | null; openidMasked: string };
  showTitle: string;
  sessionId: string;
  sessionStartsAt: string;
  /** The buyer's 联系手机, masked (138****8000); null when the order was placed without one. */
  contactPhone: string | null;
  /** Masked, from the attendees recorded with the order (real-name sessions). */
  attendees: { name: string; idNumber: string }[];
  /** miniprogram: bought and paid; comp: a complimentary order (amount 0, no payment; comp/). */
  channel: SalesChannel;
}

export interface AdminOrderDetail extends AdminOrderRow {
  expireAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  items: {
    seatId?: string;
    zoneId?: string;
    tierId: string;
    tierName: string;
    priceFen: number;
    label: string;
  }[];
  payments: {
    id: string;
    transactionId: string;
    amountFen: number;
    refundedFen: number;
    status: string;
    successTime: string | null;
  }[];
  tickets: {
    ticketNo: string;
    status: string;
    seatLabel: string;
    /** The ticket's item price (what an admin's per-ticket refund gives back). */
    priceFen: number;
    createdAt: string;
    /** Phones the ticket was bound to, newest first; revokedAt null: the current one. */
    bindings: AdminTicketBinding[];
  }[];
  refunds: {
    id: string;
    outRefundNo: string;
    amountFen: number;
    feeFen: number;
    status: string;
    reason: string;
    requestedBy: string;
    createdAt: string;
    finishedAt: string | null;
  }[];
  /** 改签: exchanges where this order is the original or the exchange order (oldest first). */
  exchanges?: Exchange[];
  audit: AuditEntry[];
}

export interface AdminPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface StaffMember {
  userId: string;
  nickname: string | null;
  shows: { id: string; title: string }[];
  since: string;
}

export interface StaffInvite {
  code: string;
  /** How the audit log names this invite (a hash of the code; the code itself is never logged). */
  ref: string;
  shows: { id: string; title: string }[];
  maxUses: number;
  uses: number;
  note: string;
  expiresAt: string;
  revoked: boolean;
  createdBy: string;
  createdAt: string;
}

/** A ticket's binding to a fan's phone (admin order detail). */
export interface AdminTicketBinding {
  id: string;
  /** The first characters of the device's public key. */
  device: string;
  /** The mini-program's X-Device-Id when it bound. */
  deviceId: string | null;
  boundAt: string;
  revokedAt: string | null;
  /** 'rebind': replaced by another phone. */
  revokedReason: string | null;
}

export interface GateConflict {
  ticketNo: string;
  /** What the offline scan turned out to be when the device synced: a second use, or a refunded ticket. */
  kind: string;
  gate: string;
  scannedAt: string;
  firstGate: string | null;
  firstAt: string | null;
}

export interface GateCounts {
  /** Always true now that check-in is part of the schema; the admin page still reads it. */
  available: boolean;
  /** manual: of those admitted, how many by manual entry (a typed number with a second factor). */
  gates: { gate: string; admitted: number; manual: number }[];
  /** Admissions found to be duplicates (or refunded tickets) when offline devices synced. */
  conflicts: GateConflict[];
}

export interface AuditEntry {
  id: string;
  adminId: string | null;
  actor: string;
  action: string;
  entityType: string;
  entityId: string;
  before: unknown;
  after: unknown;
  ip: string;
  createdAt: string;
}

export interface BlockEntry {
  id: string;
  kind: 'user' | 'device' | 'ip' | 'id';
  /** For kind "id" only the start of the keyed hash: the ID number itself is never stored. */
  value: string;
  reason: string;
  createdBy: string;
  createdAt: string;
}

export interface RiskFlag {
  id: string;
  kind: 'device' | 'ip';
  subject: string;
  accounts: number;
  firstSeen: string;
  lastSeen: string;
}

/** GET /api/v1/admin/dashboard: the sessions the live dashboard can show. */
export interface AdminLiveSession {
  id: string;
  showId: string;
  showTitle: string;
  startsAt: string;
  status: SessionStatus;
}

/** POST /api/v1/admin/venues/layout/generate (and parse): the seats and what is wrong with them. */
export interface LayoutPreview {
  seats: SeatSpecInput[];
  duplicates: string[];
  overlaps: number;
}

/** A list answer of the admin API. */
export interface AdminItems<T> {
  items: T[];
}
