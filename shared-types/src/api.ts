/** Response shapes of the public API (see docs/api.md and ../shared/api-contract.md). */
import type { ShowCategory } from './category';

export type SessionStatus = 'presale' | 'on_sale' | 'sold_out' | 'ended' | 'cancelled';
export type OrderStatus = 'pending' | 'paid' | 'ticketed' | 'cancelled' | 'refunded';
export type SeatState = 'available' | 'held' | 'sold';
export type Seating = 'reserved' | 'zone';

export interface Tier {
  id: string;
  name: string;
  priceFen: number;
  color?: string;
}

export interface RefundTier {
  /** The rule applies while the show starts at least this many hours later. */
  hoursBeforeStart: number;
  /** Fee as a percentage of the ticket price; 100 means no refund. */
  feePercent: number;
}

export interface SessionInfo {
  id: string;
  showId: string;
  startsAt: string;
  saleStartsAt: string;
  status: SessionStatus;
  seating: Seating;
  purchaseLimit: number;
  realName: boolean;
  queueEnabled: boolean;
  holdMinutes: number;
  tiers: Tier[];
  /** A postponed session (organiser's 延期): the date it had first. */
  postponedFrom?: string;
  /** Until then a fan's refund of this session ignores the tiers (full refund). */
  fullRefundUntil?: string;
}

export interface ShowSummary {
  id: string;
  title: string;
  /** One of SHOW_CATEGORIES (category.ts); 'other' unless the organiser set one. */
  category: ShowCategory;
  city: string;
  venueName: string;
  posterUrl: string | null;
  firstStartsAt: string | null;
  lastStartsAt: string | null;
  priceMinFen: number | null;
  priceMaxFen: number | null;
  status: SessionStatus;
  nextSaleStartsAt: string | null;
}

/** Where a venue is: its name, address and GCJ-02 coordinates (null when not entered). */
export interface VenueLocation {
  id: string;
  name: string;
  city: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
}

export interface ShowDetail extends ShowSummary {
  description: string;
  /**
   * latitude/longitude: GCJ-02 (the coordinates WeChat's maps use), null when the organiser has
   * not entered them (the page then offers no 导航).
   */
  venue: VenueLocation;
  /** 想看: how many fans asked for a 开售提醒 of this show. */
  wantCount: number;
  refundRules: RefundTier[];
  /** 改签: whether tickets may be exchanged, and until how long before the session. */
  exchangeRules?: { allowed: boolean; cutoffMinutes: number };
  sessions: SessionInfo[];
}

/** A seat of a venue and where the seat map draws it. */
export interface SeatPosition {
  id: string;
  section: string;
  row: string;
  number: string;
  x: number;
  y: number;
}

export interface SeatMapSeat extends SeatPosition {
  tierId: string;
  state: SeatState;
}

export interface SeatMapZone {
  id: string;
  name: string;
  tierId: string;
  capacity: number;
  available: number;
}

export interface SeatMap {
  sessionId: string;
  seating: Seating;
  tiers: Tier[];
  seats: SeatMapSeat[];
  zones: SeatMapZone[];
  /** Version of the static layout: GET .../layout?v=<it> is cacheable for good. */
  layoutVersion?: string;
}

/** Compact live states for refreshing an open seat map without reloading it. */
export interface SeatStates {
  sessionId: string;
  held: string[];
  sold: string[];
  zones: { id: string; available: number }[];
  /** Version of these states: send it back as `since` to get only what changed. */
  version?: string;
  /** true: held/sold list every such seat (the rest are available). */
  full?: boolean;
  /** Version of the session's layout (GET .../layout?v=<it>), in full answers. */
  layoutVersion?: string;
}

/**
 * What changed since the client's version (full: false): held, sold and available name the
 * seats whose state became that; zones are always complete.
 */
export interface SeatStatesDelta {
  sessionId: string;
  version: string;
  since: string;
  full: false;
  held: string[];
  sold: string[];
  available: string[];
  zones: { id: string; available: number }[];
}

/** Answer of seat-states: the full list, or a delta when `since` was given and still known. */
export type SeatStatesReply = ((SeatStates & { version: string; full: true }) | SeatStatesDelta) & {
  /** Poll again after this long (4 s; more while an operator has turned seat states down). */
  pollAfterMs?: number;
};

/** The static part of a seat map (no states): served compressed and cached by its version. */
export interface SeatLayout {
  sessionId: string;
  version: string;
  seating: Seating;
  tiers: Tier[];
  seats: Omit<SeatMapSeat, 'state'>[];
  zones: Omit<SeatMapZone, 'available'>[];
}

export interface OrderItem {
  seatId?: string;
  zoneId?: string;
  tierId: string;
  priceFen: number;
  section?: string;
  row?: string;
  number?: string;
  zoneName?: string;
  /** On real-name sessions: whose ticket this is (masked as stored, never the full values). */
  attendee?: AttendeeOnTicket;
  /** The item's ticket number once issued: what a per-ticket refund names (ticketIds). */
  ticketId?: string;
  /** The item's refund, once asked for (per-ticket refunds: each item its own). */
  refundStatus?: RefundStatus;
  /** The buyer's ticket of this item was handed to someone else (转赠): not refundable. */
  transferred?: boolean;
  /** A transfer offer of the buyer's ticket is open: not refundable until it is cancelled. */
  transferring?: boolean;
  /** The ticket was exchanged (改签) for one of another order: void here, not refundable here. */
  exchanged?: boolean;
}

/** The real-name holder of one ticket, masked (张*三, 1101**********1234). */
export interface AttendeeOnTicket {
  name: string;
  idMasked: string;
}

export type RefundStatus = 'requested' | 'processing' | 'succeeded' | 'abnormal' | 'closed';

export interface OrderRefund {
  status: RefundStatus;
  amountFen: number;
  feeFen: number;
  requestedAt: string;
  /** When WeChat Pay settled the refund (succeeded, closed or abnormal); absent while it is open. */
  finishedAt?: string;
}

export interface Order {
  orderNo: string;
  status: OrderStatus;
  sessionId: string;
  amountFen: number;
  expireAt: string;
  createdAt: string;
  items: OrderItem[];
  /** Why a cancelled order was cancelled: 'expired' (not paid in time), 'buyer' or 'session_cancelled'. */
  cancelReason?: string;
  /** The buyer's or an admin's refund of this order, once asked for (the latest, if several). */
  refund?: OrderRefund;
  /** Every refund of this order, oldest first (several with per-ticket refunds). */
  refunds?: OrderRefund[];
  /** The 联系手机 given with the order, masked (138****8000). */
  contactPhone?: string;
  /**
   * This order bought the new seats of an exchange (改签) of that original order: it holds only
   * the price difference, so its tickets are not refundable (the fan is told before exchanging).
   */
  exchangedFrom?: string;
}

export interface Page<T> {
  items: T[];
  next?: string;
}

/** POST /api/v1/auth/wx-login: the API's bearer token for a WeChat login code. */
export interface WxLoginResponse {
  token: string;
  user: { id: string };
}

/** The arguments of wx.requestPayment, signed by the server (JSAPI, RSA). */
export interface PayParams {
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

/** POST /api/v1/orders/:orderNo/pay */
export interface PayResponse {
  prepayId: string;
  payParams: PayParams;
  /** The simulator's cashier page, for the H5 build (absent in production WeChat). */
  cashierUrl?: string;
}

/**
 * valid; voided (refunded); refunding (a refund is under way: not admitted); transferring (a
 * transfer offer is open: not admitted, not refundable); transferred (handed to someone else: a
 * new ticket replaced it); exchanged (改签: replaced by a new ticket, not admitted). Entry shows
 * as checkedInAt.
 */
export type TicketStatus = 'valid' | 'voided' | 'refunding' | 'transferring' | 'transferred' | 'exchanged';

/** A ticket's binding to the device that shows its codes. */
export interface TicketBinding {
  bindingId: string;
  /** base64url; what ticket-code.ts makeCode signs over with the device key. */
  binding: string;
  /** The bound device's Ed25519 public key (base64url): compare with this device's to know whose it is. */
  devicePublicKey: string;
  validUntil: string;
  boundAt: string;
  codeStepMs: number;
}

/** An electronic ticket of GET /api/v1/tickets ({ items: Ticket[] }). */
export interface Ticket {
  ticketId: string;
  orderNo: string;
  sessionId: string;
  seatId?: string;
  zoneId?: string;
  status: TicketStatus;
  /**
   * The server's signed binding of the ticket to a device ('' until a device binds it). Not a code:
   * only the bound device's private key turns it into the QR the gate accepts (makeCode).
   */
  qr: string;
  /** The live binding (POST /api/v1/tickets/:ticketId/bind); absent until a device binds. */
  binding?: TicketBinding;
  codeStepMs: number;
  /** When the ticket was admitted at a gate. */
  checkedInAt?: string;
  showTitle: string;
  venueName: string;
  startsAt: string;
  seat?: { section: string; row: string; number: string };
  zoneName?: string;
  /** On real-name sessions: the attendee the ticket is bound to; the gate checks their ID. */
  attendee?: AttendeeOnTicket;
  /** The open transfer offer of a transferring ticket (its holder's view: the code to share). */
  transferOffer?: { code: string; expiresAt: string };
  /** A ticket this fan received by transfer (转赠): not refundable. */
  received?: boolean;
  /** Whether the organiser allows transferring this ticket now (a 转赠 button). */
  transferable?: boolean;
}

/** GET /api/v1/sessions/:sessionId/quota: what this fan may still buy in the session. */
export interface PurchaseQuota {
  sessionId: string;
  /** Per person in this session. */
  purchaseLimit: number;
  /** Units this fan's live orders (pending, paid, ticketed) hold in this session. */
  held: number;
  /** Per person across the show's sessions, when the show sets one. */
  showPurchaseLimit: number | null;
  showHeld: number;
  /** What one more order may take: 0 means 已达限购. */
  remaining: number;
}

/** The waiting room as one fan sees it. */
export interface QueueStatus {
  sessionId: string;
  queueEnabled: boolean;
  /** presale: joined before the sale; shuffling: places being drawn; waiting; admitted; expired: the turn ran out; sold_out. */
  state: 'not_joined' | 'presale' | 'shuffling' | 'waiting' | 'admitted' | 'expired' | 'sold_out';
  position: number | null;
  ahead: number | null;
  /** Places 1..admittedThrough have been let in ("now admitting #N"). */
  admittedThrough: number | null;
  admitted: boolean;
  admissionToken?: string;
  /** When the admitted turn ends. */
  admissionExpiresAt?: string;
  soldOut: boolean;
  etaSeconds: number | null;
  /** Poll again after this long (the server spreads polls out by distance to the front). */
  pollAfterMs: number;
}

/** A buyer's saved attendee: full values for filling an order (only ever sent to its owner), masked ones for display. */
export interface SavedAttendee {
  id: string;
  name: string;
  idType: string;
  idNumber: string;
  nameMasked: string;
  idMasked: string;
}

/** What a gate scan found: admitted, used before (possibly at another gate), unknown or refunded. */
export type CheckinResult = 'admitted' | 'already_used' | 'invalid' | 'refunded';

/** POST /api/v1/checkin */
export interface CheckinAnswer {
  result: CheckinResult;
  ticketId?: string;
  usedAt?: string;
  gate?: string;
  usedBy?: string;
  reason?: string;
  seat?: string;
  /** Real-name sessions: whom the ticket is for, masked, to compare with the person at the gate. */
  attendee?: { name: string; idNumber: string };
  /** Tickets this gate has admitted for the session so far. */
  gateCount?: number;
  /** Manual entries: how the ticket was admitted ('manual_id' or 'manual_code'). */
  kind?: 'qr' | 'manual_id' | 'manual_code';
}

/** POST /api/v1/checkin/sync: one result per offline scan, in the order sent. */
export interface CheckinSyncAnswer {
  /** reason on refusals: 'unknown ticket', 'other session', 'other show', 'not today' (contract scan without sessionId outside the session's entry window), 'outside window' (scannedAt not in the bundle's window). */
  items: { ticketNo: string; result: CheckinResult; reason?: string }[];
  gateCount?: number;
}
