/**
 * One typed function per Lua script (lua/<name>-<numKeys>.lua): its KEYS come from the key
 * builder, its ARGV are named as in the script's header and sent in that order, and its reply is
 * decoded here into a result type. `CONTRACTS` lists each script's KEYS and fixed ARGV names;
 * test/redis.contract.test.ts checks them against the headers, so a header, its wrapper and its
 * callers cannot drift apart. The take scripts (lockSeats, takeZone) are called by
 * inventory/service.ts through `take`; their contracts are checked all the same.
 */
import { RC } from './codes';
import type { SessionKeys } from './keys';
import type { ScriptReply, ScriptedRedis } from './scripts';

type Arg = string | number;

/** The request-rate counters a script counts in its session (_rates.lua), and their ARGV. */
const RATE_KEYS = ['rateUser', 'rateDevice', 'rateIp'] as const;
const RATE_ARGV = [
  'rateUserPoints',
  'rateUserWindowMs',
  'rateDevicePoints',
  'rateDeviceWindowMs',
  'rateIpPoints',
  'rateIpWindowMs',
] as const;

/** The take scripts' KEYS: the units (seats or zslots), then the gate's (cooldown and rates last). */
const TAKE_KEYS = (units: 'seats' | 'zslots') =>
  [
    'meta',
    units,
    'users',
    'orders',
    'pending',
    'idem',
    'admission',
    'ids',
    'cooldown',
    ...RATE_KEYS,
  ] as const;

/** Each script's KEYS and its fixed ARGV, by the names its header gives them, in order. */
export const CONTRACTS = {
  lockSeats: {
    keys: [...TAKE_KEYS('seats')],
    argv: [
      'orderId',
      'userId',
      'nowMs',
      'holdUntilMs',
      'purchase',
      'idempotency',
      'request',
      'admission',
      ...RATE_ARGV,
      'n',
    ],
  },
  takeZone: {
    keys: [...TAKE_KEYS('zslots')],
    argv: [],
  },
  confirmOrder: { keys: ['meta', 'seats', 'orders', 'pending'], argv: ['orderId', 'mode'] },
  releaseOrder: {
    keys: ['meta', 'seats', 'users', 'orders', 'pending', 'idem', 'zslots', 'ids', 'admission'],
    argv: ['orderId', 'forget', 'returnTurn'],
  },
  releaseUnits: {
    keys: ['meta', 'seats', 'users', 'orders', 'pending', 'zslots'],
    argv: ['orderId'],
  },
  moveIds: { keys: ['ids'], argv: ['fromOrderId', 'toOrderId'] },
  retakeOrder: {
    keys: ['meta', 'seats', 'users', 'orders', 'pending', 'zslots', 'ids'],
    argv: ['orderId', 'userId', 'nowMs', 'holdUntilMs', 'kind', 'quantity', 'n'],
  },
  moveAttendee: { keys: ['orders', 'ids'], argv: ['orderId', 'fromHash', 'toHash'] },
  reserveUnits: { keys: ['meta', 'seats', 'zslots'], argv: ['kind', 'quantity'] },
  unreserveUnits: { keys: ['meta', 'seats', 'zslots'], argv: ['kind'] },
  leaderLease: { keys: ['lease'], argv: ['owner', 'leaseMs', 'action'] },
  queueJoin: {
    keys: ['state', 'pre', 'frozen', 'line', 'ids', 'turns', ...RATE_KEYS],
    argv: ['userId', 'nowMs', 'idHash', ...RATE_ARGV],
  },
  queueStatus: { keys: ['state', 'pre', 'frozen', 'line', 'turns'], argv: ['userId'] },
  queueOpen: { keys: ['state', 'pre', 'frozen'], argv: ['seed', 'nowMs'] },
  queueAdmit: { keys: ['state', 'meta', 'line', 'turns'], argv: ['nowMs', 'ratePerMin'] },
} as const satisfies Record<string, { keys: readonly string[]; argv: readonly string[] }>;

export type ScriptName = keyof typeof CONTRACTS;

/** The KEYS of a session script, by name, in its contract's order. */
export function sessionKeys(name: ScriptName, k: SessionKeys, jti = ''): string[] {
  const byName: Record<string, string> = {
    meta: k.meta,
    seats: k.seats,
    users: k.users,
    orders: k.orders,
    pending: k.pending,
    idem: k.idem,
    zslots: k.zslots,
    ids: k.ids,
    admission: k.admission(jti),
    // The take scripts' defaults (scriptKeys.take): no buyer, no rate counted.
    cooldown: k.cooldown('-'),
    rateUser: k.rate('u', undefined),
    rateDevice: k.rate('d', undefined),
    rateIp: k.rate('i', undefined),
  };
  return CONTRACTS[name].keys.map((key) => byName[key]!);
}

/** The KEYS of a waiting-room script (the queue's own `ids`, not the inventory's; no rate counted). */
function queueKeys(name: ScriptName, k: SessionKeys): string[] {
  const byName: Record<string, string> = {
    ...k.queue,
    meta: k.meta,
    rateUser: k.joinRate('u', undefined),
    rateDevice: k.joinRate('d', undefined),
    rateIp: k.joinRate('i', undefined),
  };
  return CONTRACTS[name].keys.map((key) => byName[key]!);
}

/** ARGV in the header's order from arguments given by name. */
function argv<N extends ScriptName>(
  name: N,
  args: Record<(typeof CONTRACTS)[N]['argv'][number], Arg>,
): Arg[] {
  return CONTRACTS[name].argv.map((a) => (args as Record<string, Arg>)[a]!);
}

export type ConfirmMode = 'owned' | 'record';
export type ConfirmResult =
  | { kind: 'confirmed' | 'already' | 'unknown' | 'released' }
  | { kind: 'not_owner' | 'conflict'; seatId: string };
export type ReleaseResult =
  { kind: 'released'; availAfter: number; freed: number } | { kind: 'already' | 'unknown' };

const CONFIRM_KINDS: Partial<Record<RC, 'confirmed' | 'already' | 'released' | 'unknown'>> = {
  [RC.CONFIRMED]: 'confirmed',
  [RC.ALREADY]: 'already',
  [RC.RELEASED]: 'released',
  [RC.UNKNOWN_ORDER]: 'unknown',
};

export async function confirmOrder(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { orderId: string; mode: ConfirmMode },
): Promise<ConfirmResult> {
  const [code, seat] = await redis.confirmOrder(
    ...sessionKeys('confirmOrder', k),
    ...argv('confirmOrder', a),
  );
  const kind = CONFIRM_KINDS[code as RC];
  if (kind) return { kind };
  return { kind: code === RC.NOT_OWNER ? 'not_owner' : 'conflict', seatId: String(seat) };
}

/** forget: the order never reached MySQL; returnTurn: the admission token's jti to give back, or ''. */
export async function releaseOrder(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { orderId: string; forget: boolean; returnTurn: string },
): Promise<ReleaseResult> {
  const [code, avail, freed] = await redis.releaseOrder(
    ...sessionKeys('releaseOrder', k, a.returnTurn),
    ...argv('releaseOrder', {
      orderId: a.orderId,
      forget: a.forget ? '1' : '0',
      returnTurn: a.returnTurn ? '1' : '0',
    }),
  );
  if (code === RC.RELEASED) return { kind: 'released', availAfter: Number(avail), freed: Number(freed) };
  return { kind: code === RC.ALREADY ? 'already' : 'unknown' };
}

/** Some units of an order (seat ids or slot numbers): a per-ticket refund's seats back on sale. */
export async function releaseUnits(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { orderId: string; units: string[] },
): Promise<ReleaseResult> {
  const [code, avail, freed] = await redis.releaseUnits(
    ...sessionKeys('releaseUnits', k),
    ...argv('releaseUnits', { orderId: a.orderId }),
    ...a.units,
  );
  if (code === RC.RELEASED) return { kind: 'released', availAfter: Number(avail), freed: Number(freed) };
  return { kind: code === RC.ALREADY ? 'already' : 'unknown' };
}

/**
 * Real-name ID claims of an order moved to another order of the session (toOrderId) or given up
 * (''): its tickets were exchanged. The number of IDs moved.
 */
export async function moveIds(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { fromOrderId: string; toOrderId: string; idHashes: string[] },
): Promise<number> {
  if (a.idHashes.length === 0) return 0;
  const [, moved] = await redis.moveIds(...sessionKeys('moveIds', k), ...argv('moveIds', a), ...a.idHashes);
  return Number(moved);
}

/** The raw reply (decoded with the take scripts' replies by inventory/service.ts toTakeResult). */
export function retakeOrder(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { orderId: string; userId: string; nowMs: number; holdUntilMs: number; idHashes: string[] } & (
    { kind: 's'; seatIds: string[] } | { kind: `z${string}`; quantity: number }
  ),
): Promise<ScriptReply> {
  const seatIds = 'seatIds' in a ? a.seatIds : [];
  const quantity = 'seatIds' in a ? a.seatIds.length : a.quantity;
  const fixed = argv('retakeOrder', { ...a, quantity, n: a.idHashes.length });
  return redis.retakeOrder(...sessionKeys('retakeOrder', k), ...fixed, ...a.idHashes, ...seatIds);
}

/** A real-name attendee of an order re-bound to another ID (a ticket transfer was accepted). */
export async function moveAttendee(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { orderId: string; fromHash: string; toHash: string },
): Promise<{ kind: 'moved' | 'unknown' }> {
  const [code] = await redis.moveAttendee(...sessionKeys('moveAttendee', k), ...argv('moveAttendee', a));
  return { kind: code === RC.CONFIRMED ? 'moved' : 'unknown' };
}

/** What a reservation's script answered (reserveUnits-3.lua). */
export type ReserveResult =
  | { kind: 'reserved'; availAfter: number; units: string[] }
  | { kind: 'not_ready' }
  | { kind: 'seat_taken'; seatId: string }
  | { kind: 'sold_out'; left: number };

/** Holds seats (kind 's') or `quantity` units of a zone back from public sale. */
export async function reserveUnits(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { kind: string; quantity: number; seatIds: string[] },
): Promise<ReserveResult> {
  const [code, ...rest] = await redis.reserveUnits(
    ...sessionKeys('reserveUnits', k),
    ...argv('reserveUnits', a),
    ...a.seatIds,
  );
  if (code === RC.LOCKED)
    return { kind: 'reserved', availAfter: Number(rest[0]), units: rest.slice(1).map(String) };
  if (code === RC.SEAT_TAKEN) return { kind: 'seat_taken', seatId: String(rest[0]) };
  if (code === RC.SOLD_OUT) return { kind: 'sold_out', left: Number(rest[0]) };
  return { kind: 'not_ready' };
}

/** Puts reserved seats (kind 's') or slots of a zone back on public sale. */
export async function unreserveUnits(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { kind: string; units: string[] },
): Promise<ReleaseResult | { kind: 'not_ready' }> {
  if (a.units.length === 0) return { kind: 'already' };
  const [code, avail, freed] = await redis.unreserveUnits(
    ...sessionKeys('unreserveUnits', k),
    ...argv('unreserveUnits', { kind: a.kind }),
    ...a.units,
  );
  if (code === RC.RELEASED) return { kind: 'released', availAfter: Number(avail), freed: Number(freed) };
  return { kind: 'not_ready' };
}

export async function leaderLease(
  redis: ScriptedRedis,
  lease: string,
  a: { owner: string; leaseMs: number; action: 'hold' | 'release' },
): Promise<{ leading: true } | { leading: false; owner: string }> {
  const [code, owner] = await redis.leaderLease(lease, ...argv('leaderLease', a));
  return code === RC.LEADING ? { leading: true } : { leading: false, owner: String(owner ?? '') };
}

/** A fan's view of the waiting room, as queueStatus and queueJoin answer it (see their headers). */
export type QueueViewReply = [
  place: number | '',
  drawing: number,
  admittedThrough: number,
  soldOut: number,
  inPresalePool: number,
  inDraw: number,
  turnStart: number | '',
];

export async function queueJoin(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { userId: string; nowMs: number; idHash: string },
): Promise<{ kind: 'queued'; view: QueueViewReply } | { kind: 'id_taken' }> {
  // No rate counted (as queueKeys gives no counter); the service counts joins (queue/service.ts).
  const off = {
    rateUserPoints: 0,
    rateUserWindowMs: 0,
    rateDevicePoints: 0,
    rateDeviceWindowMs: 0,
    rateIpPoints: 0,
    rateIpWindowMs: 0,
  };
  const [code, view] = (await redis.queueJoin(
    ...queueKeys('queueJoin', k),
    ...argv('queueJoin', { ...a, ...off }),
  )) as unknown as [number, QueueViewReply];
  return code === RC.ID_TAKEN ? { kind: 'id_taken' } : { kind: 'queued', view };
}

export async function queueStatus(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { userId: string },
): Promise<QueueViewReply> {
  return (await redis.queueStatus(
    ...queueKeys('queueStatus', k),
    ...argv('queueStatus', a),
  )) as unknown as QueueViewReply;
}

export async function queueOpen(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { seed: string; nowMs: number },
): Promise<{ opened: true; poolSize: number } | { opened: false }> {
  const [code, size] = await redis.queueOpen(...queueKeys('queueOpen', k), ...argv('queueOpen', a));
  return code === RC.OPENED ? { opened: true, poolSize: Number(size) } : { opened: false };
}

export async function queueAdmit(
  redis: ScriptedRedis,
  k: SessionKeys,
  a: { nowMs: number; ratePerMin: number },
): Promise<{ admittedUpTo: number; soldOut: boolean } | undefined> {
  const [code, admitted, soldOut] = await redis.queueAdmit(
    ...queueKeys('queueAdmit', k),
    ...argv('queueAdmit', a),
  );
  return code === RC.ADMITTED
    ? { admittedUpTo: Number(admitted), soldOut: Number(soldOut) === 1 }
    : undefined;
}
