import { ExchangeRulesSchema } from './exchange';
/**
 * The admin API's request schemas, validated by the server and reused by the admin page's forms;
 * its response shapes are in admin-views.ts. Money is integer fen; times are ISO 8601 strings.
 */
import { z } from 'zod';
import { ID_TYPES, IdSchema, RefundTicketIdsSchema } from './schemas';
import { PhoneSchema } from './phone';
import { ShowCategorySchema } from './category';

export * from './ops';

export const ADMIN_ROLES = ['admin', 'operator', 'staff_manager'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

const isoTime = z.iso.datetime({ offset: true });
const text = (max: number) => z.string().trim().max(max);
const name = (max: number) => z.string().trim().min(1).max(max);

// ---------- accounts ----------
export const AdminLoginSchema = z.strictObject({ username: name(64), password: z.string().min(1).max(200) });

export const PASSWORD_MIN = 10;
export const AdminCreateSchema = z.strictObject({
  username: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{3,64}$/, '用户名只能包含字母、数字和 _ . -'),
  displayName: text(64).default(''),
  password: z.string().min(PASSWORD_MIN, `密码至少 ${PASSWORD_MIN} 位`).max(200),
  roles: z.array(z.enum(ADMIN_ROLES)).min(1),
});
export const AdminUpdateSchema = z.strictObject({
  displayName: text(64).optional(),
  password: z.string().min(PASSWORD_MIN, `密码至少 ${PASSWORD_MIN} 位`).max(200).optional(),
  roles: z.array(z.enum(ADMIN_ROLES)).min(1).optional(),
  disabled: z.boolean().optional(),
});

// ---------- venues ----------
/** One block of the grid generator; one seat is 10 venue units wide. */
export const BlockSpecSchema = z.strictObject({
  section: name(32),
  rows: z.number().int().min(1).max(200),
  seatsPerRow: z.number().int().min(1).max(300),
  originX: z.number().int().min(-100_000).max(100_000).default(0),
  originY: z.number().int().min(-100_000).max(100_000).default(0),
  /** Rows bow towards the stage by this many units at their ends (0 = straight). */
  curve: z.number().int().min(0).max(2_000).default(0),
  /** Each row has this many more seats than the row in front (a fan-shaped block). */
  widenPerRow: z.number().int().min(0).max(10).default(0),
  /** Seat positions (1-based) left empty in every row: pillars, camera platforms. */
  gaps: z.array(z.number().int().min(1).max(1_000)).max(200).default([]),
  /** An aisle follows these seat numbers; numbering continues across it. */
  aisles: z.array(z.number().int().min(1).max(1_000)).max(50).default([]),
  /** A cross aisle follows these row numbers. */
  rowAisles: z.array(z.number().int().min(1).max(200)).max(50).default([]),
  rowLabels: z.enum(['number', 'letter']).default('number'),
  firstRow: z.number().int().min(1).max(999).default(1),
  /** 'odd-even': 1 nearest the centre line, odd numbers to the right and even to the left (seen from the seats), as in many Chinese halls. */
  numbering: z.enum(['ltr', 'rtl', 'odd-even']).default('ltr'),
});
export type BlockSpecInput = z.input<typeof BlockSpecSchema>;
export type BlockSpec = z.output<typeof BlockSpecSchema>;

export const SeatSpecSchema = z.strictObject({
  section: name(32),
  row: name(16),
  number: name(16),
  x: z.number().finite().min(-1_000_000).max(1_000_000),
  y: z.number().finite().min(-1_000_000).max(1_000_000),
});
export type SeatSpecInput = z.infer<typeof SeatSpecSchema>;

export const ZoneSpecSchema = z.strictObject({
  name: name(64),
  capacity: z.number().int().min(1).max(200_000),
});

export const VENUE_SEATS_MAX = 60_000;
export const GenerateLayoutSchema = z.strictObject({ blocks: z.array(BlockSpecSchema).min(1).max(50) });

const layoutFields = {
  seats: z.array(SeatSpecSchema).max(VENUE_SEATS_MAX).optional(),
  blocks: z.array(BlockSpecSchema).max(50).optional(),
  zones: z.array(ZoneSpecSchema).max(100).default([]),
};
const hasUnits = (v: { seats?: unknown[]; blocks?: unknown[]; zones: unknown[] }) =>
  (v.seats?.length ?? 0) + (v.blocks?.length ?? 0) + v.zones.length > 0;
const noUnits = { message: '场馆至少需要一个座位或一个站席区' };

/** A venue's seats: explicit seats (import) and/or generator blocks, plus standing zones. */
export const VenueLayoutSchema = z.strictObject(layoutFields).refine(hasUnits, noUnits);
/**
 * A venue's place on the map, for 导航 (wx.openLocation): GCJ-02, the coordinates WeChat's maps
 * and Tencent's map picker give (outside mainland China they equal WGS-84). null clears them.
 */
export const LatitudeSchema = z
  .number()
  .finite()
  .min(-90, '纬度应在 -90 到 90 之间')
  .max(90, '纬度应在 -90 到 90 之间');
export const LongitudeSchema = z
  .number()
  .finite()
  .min(-180, '经度应在 -180 到 180 之间')
  .max(180, '经度应在 -180 到 180 之间');
const coordFields = {
  latitude: LatitudeSchema.nullable().optional(),
  longitude: LongitudeSchema.nullable().optional(),
};
/** Both or neither: a latitude without its longitude is no place. */
const bothOrNeither = (v: { latitude?: number | null; longitude?: number | null }) =>
  (v.latitude === undefined) === (v.longitude === undefined) &&
  (v.latitude === null) === (v.longitude === null);
const coordPair = { message: '经纬度须同时填写或同时清空', path: ['latitude'] };

export const VenueCreateSchema = z
  .strictObject({
    name: name(100),
    city: text(32).default(''),
    address: text(255).default(''),
    ...coordFields,
    ...layoutFields,
  })
  .refine(hasUnits, noUnits)
  .refine(bothOrNeither, coordPair);
export type VenueCreateInput = z.input<typeof VenueCreateSchema>;

export const VenueUpdateSchema = z
  .strictObject({
    name: name(100).optional(),
    city: text(32).optional(),
    address: text(255).optional(),
    ...coordFields,
  })
  .refine(bothOrNeither, coordPair);

export const ParseLayoutSchema = z.strictObject({
  format: z.enum(['csv', 'json']),
  text: z.string().min(1).max(8_000_000),
});

// ---------- shows ----------
export const RefundTierSchema = z.strictObject({
  hoursBeforeStart: z
    .number()
    .int()
    .min(0)
    .max(24 * 365),
  feePercent: z.number().int().min(0).max(100),
});
const refundRules = z
  .array(RefundTierSchema)
  .max(10)
  .refine((r) => new Set(r.map((t) => t.hoursBeforeStart)).size === r.length, {
    message: '退票规则的时限不能重复',
  })
  // Kept most generous (earliest) first, as the fan page and the refund path read them.
  .transform((r) => [...r].sort((a, b) => b.hoursBeforeStart - a.hoursBeforeStart));
const posterUrl = z
  .string()
  .regex(/^\/media\/posters\/[\w.-]{1,120}$|^https:\/\/\S{1,480}$/, '海报地址不正确')
  .nullable();

export const ShowCreateSchema = z.strictObject({
  title: name(200),
  category: ShowCategorySchema.default('other'),
  venueId: IdSchema,
  description: text(20_000).default(''),
  posterUrl: posterUrl.default(null),
  refundRules: refundRules.default([]),
  /** Tickets one buyer may hold across every session of the show (null: only per-session limits). */
  showPurchaseLimit: z.number().int().min(1).max(100).nullable().default(null),
  /** 改签 rules (none: exchanges not allowed). */
  exchangeRules: ExchangeRulesSchema.optional(),
});
export type ShowCreateInput = z.input<typeof ShowCreateSchema>;
export const ShowUpdateSchema = z.strictObject({
  title: name(200).optional(),
  category: ShowCategorySchema.optional(),
  venueId: IdSchema.optional(),
  description: text(20_000).optional(),
  posterUrl: posterUrl.optional(),
  refundRules: refundRules.optional(),
  showPurchaseLimit: z.number().int().min(1).max(100).nullable().optional(),
  /** 改签 rules: allowed, and until how many minutes before a session starts. */
  exchangeRules: ExchangeRulesSchema.optional(),
});

// ---------- sessions ----------
export const TierSpecSchema = z.strictObject({
  /** Present when editing an existing tier. */
  id: IdSchema.optional(),
  name: name(32),
  priceFen: z.number().int().min(0).max(100_000_000),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .optional(),
  seatIds: z.array(IdSchema).max(VENUE_SEATS_MAX).optional(),
  zoneName: name(64).optional(),
});
export type TierSpecInput = z.input<typeof TierSpecSchema>;

const tiers = z
  .array(TierSpecSchema)
  .min(1)
  .max(30)
  .refine((t) => new Set(t.map((x) => x.name)).size === t.length, { message: '票档名称不能重复' })
  .refine((t) => t.filter((x) => !x.seatIds && !x.zoneName).length <= 1, {
    message: '只能有一个票档覆盖其余座位',
  });

const sessionFields = {
  startsAt: isoTime,
  saleStartsAt: isoTime,
  holdMinutes: z.number().int().min(1).max(120),
  purchaseLimit: z.number().int().min(1).max(10),
  realName: z.boolean(),
  queueEnabled: z.boolean(),
  /** Buyers admitted from the queue per minute (the queue itself comes with its own issue). */
  queueRatePerMin: z.number().int().min(1).max(1_000_000).nullable().optional(),
};
const saleBeforeStart = (s: { startsAt?: string; saleStartsAt?: string }) =>
  !s.startsAt || !s.saleStartsAt || Date.parse(s.saleStartsAt) < Date.parse(s.startsAt);

export const SessionCreateSchema = z
  .strictObject({ ...sessionFields, tiers })
  .refine(saleBeforeStart, { message: '开售时间必须早于演出开始时间', path: ['saleStartsAt'] });
export type SessionCreateInput = z.input<typeof SessionCreateSchema>;

export const SessionUpdateSchema = z
  .strictObject({
    startsAt: isoTime.optional(),
    saleStartsAt: isoTime.optional(),
    holdMinutes: sessionFields.holdMinutes.optional(),
    purchaseLimit: sessionFields.purchaseLimit.optional(),
    realName: z.boolean().optional(),
    queueEnabled: z.boolean().optional(),
    queueRatePerMin: sessionFields.queueRatePerMin,
    /** Freeze re-binding tickets to another phone this long before the start (null: never). */
    rebindFreezeMinutes: z.number().int().min(0).max(10_080).nullable().optional(),
  })
  .refine(saleBeforeStart, { message: '开售时间必须早于演出开始时间', path: ['saleStartsAt'] });
export const TiersUpdateSchema = z.strictObject({ tiers });

// ---------- dashboard ----------

// ---------- orders ----------
export const ORDER_STATUSES = ['pending', 'paid', 'ticketed', 'cancelled', 'refunded'] as const;
export const OrderSearchSchema = z.strictObject({
  orderNo: z
    .string()
    .trim()
    .regex(/^\d{1,32}$/, '订单号只含数字')
    .optional(),
  buyer: text(64).optional(),
  /** The order's 联系手机, complete (it is stored encrypted and found by its keyed hash). */
  phone: PhoneSchema.optional(),
  idNumber: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[0-9A-Z]{4,32}$/, '证件号格式不正确')
    .optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  showId: IdSchema.optional(),
  sessionId: IdSchema.optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type OrderSearchInput = z.input<typeof OrderSearchSchema>;
export const ExportQuerySchema = OrderSearchSchema.extend({ format: z.enum(['csv', 'xlsx']).default('csv') });
/** ticketIds: refund only those tickets (per-ticket refund); none: everything not refunded yet. */
export const AdminRefundSchema = z.strictObject({
  reason: text(200).min(1, '请填写退款原因'),
  ticketIds: RefundTicketIdsSchema.optional(),
});

// ---------- staff ----------
export const StaffAssignSchema = z.strictObject({
  userId: IdSchema,
  showIds: z.array(IdSchema).min(1).max(200),
});
export const InviteCreateSchema = z.strictObject({
  showIds: z.array(IdSchema).min(1).max(200),
  maxUses: z.number().int().min(1).max(1_000).default(1),
  expiresInHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(72),
  note: text(100).default(''),
});
export const InviteRedeemSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{8,16}$/, '邀请码格式不正确'),
});

// ---------- audit ----------
export const AuditQuerySchema = z.strictObject({
  entityType: z
    .string()
    .regex(/^[a-z_]{1,32}$/)
    .optional(),
  entityId: z
    .string()
    .regex(/^[\w:-]{1,64}$/)
    .optional(),
  actor: text(64).optional(),
  action: z
    .string()
    .regex(/^[a-z_.]{1,64}$/)
    .optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});

// ---------- risk (the fair-access blocklist and flags) ----------
export const BLOCK_KINDS = ['user', 'device', 'ip', 'id'] as const;
export const BlockCreateSchema = z
  .strictObject({
    kind: z.enum(BLOCK_KINDS),
    /** A user id, device id, IP address, or (kind "id") the ID number itself, stored only as its keyed hash. */
    value: z.string().trim().min(1).max(128),
    idType: z.enum(ID_TYPES).default('id_card'),
    reason: text(200).default(''),
  })
  .refine((b) => b.kind !== 'user' || /^\d{1,20}$/.test(b.value), {
    message: '用户 ID 只含数字',
    path: ['value'],
  })
  .refine((b) => b.kind !== 'id' || /^[0-9A-Za-z]{5,32}$/.test(b.value), {
    message: '证件号格式不正确',
    path: ['value'],
  });

// ---------- request bodies of the admin page's typed API layer (admin/src/api) ----------
export type AdminCreateInput = z.input<typeof AdminCreateSchema>;
export type AdminUpdateInput = z.input<typeof AdminUpdateSchema>;
export type VenueUpdateInput = z.input<typeof VenueUpdateSchema>;
export type VenueLayoutInput = z.input<typeof VenueLayoutSchema>;
export type ParseLayoutInput = z.input<typeof ParseLayoutSchema>;
export type ShowUpdateInput = z.input<typeof ShowUpdateSchema>;
export type SessionUpdateInput = z.input<typeof SessionUpdateSchema>;
export type InviteCreateInput = z.input<typeof InviteCreateSchema>;
export type AuditQueryInput = z.input<typeof AuditQuerySchema>;
export type BlockCreateInput = z.input<typeof BlockCreateSchema>;
export type ExportQueryInput = z.input<typeof ExportQuerySchema>;
