import { appError } from '../../errors';
import type { Claims, CurrentTiers } from './repo';

export interface TierSpec {
  id?: string;
  name: string;
  priceFen: number;
  color?: string;
  seatIds?: string[];
  zoneName?: string;
}

/** Which tier each seat and zone gets; a tier is named by its id or, when new, `new:<index>`. */
export interface TierPlan {
  keys: string[];
  seatTier: Map<string, string>;
  zoneTier: Map<string, { tierId: string; capacity: number }>;
  deleted: string[];
}

export const EMPTY_CLAIMS: Claims = {
  seats: new Map(),
  zones: new Map(),
  tierUnits: new Map(),
  history: new Set(),
};

function invalid(message: string, details?: unknown): never {
  throw appError('VALIDATION_FAILED', details, message);
}

function conflict(message: string, details?: unknown): never {
  throw appError('EDIT_CONFLICT', details, message);
}

/**
 * Checks a session's desired tiers against its venue and against what has been sold, and works
 * out the new seat and zone maps. Sold or held units keep their tier and its price: a tier with
 * live orders cannot change price or be deleted, and a claimed seat cannot leave the sale or
 * move to another tier. Seats no tier covers are simply not on sale.
 */
export function planTiers(cur: CurrentTiers, desired: TierSpec[], claims: Claims): TierPlan {
  const existing = new Map(cur.tiers.map((t) => [t.id, t]));
  const keys = desired.map((t, i) => {
    if (t.id === undefined) return `new:${i}`;
    if (!existing.has(t.id)) invalid(`票档 ${t.id} 不属于该场次`, { tierId: t.id });
    return t.id;
  });
  if (new Set(keys).size !== keys.length) invalid('同一票档出现了两次');

  const seatTier = new Map<string, string>();
  const zoneTier = new Map<string, { tierId: string; capacity: number }>();
  let fallback: string | undefined;
  desired.forEach((t, i) => {
    if (t.zoneName) {
      const zone = cur.venueZones.get(t.zoneName);
      if (!zone) invalid(`场馆没有名为「${t.zoneName}」的站席区`, { zoneName: t.zoneName });
      if (zoneTier.has(zone.id)) invalid(`站席区「${t.zoneName}」被两个票档使用`);
      zoneTier.set(zone.id, { tierId: keys[i]!, capacity: zone.capacity });
    } else if (t.seatIds) {
      for (const seat of t.seatIds) {
        if (!cur.venueSeats.has(seat)) invalid(`座位 ${seat} 不属于该场馆`, { seatId: seat });
        if (seatTier.has(seat)) invalid(`${cur.venueSeats.get(seat)} 被分到了两个票档`, { seatId: seat });
        seatTier.set(seat, keys[i]!);
      }
    } else {
      fallback = keys[i];
    }
  });
  if (fallback)
    for (const seat of cur.venueSeats.keys()) if (!seatTier.has(seat)) seatTier.set(seat, fallback);
  if (seatTier.size + zoneTier.size === 0) invalid('票档没有覆盖任何座位或站席区');

  const deleted = cur.tiers.filter((t) => !keys.includes(t.id)).map((t) => t.id);
  checkSold(cur, desired, keys, deleted, claims, seatTier, zoneTier);
  return { keys, seatTier, zoneTier, deleted };
}

function checkSold(
  cur: CurrentTiers,
  desired: TierSpec[],
  keys: string[],
  deleted: string[],
  claims: Claims,
  seatTier: Map<string, string>,
  zoneTier: Map<string, { tierId: string }>,
): void {
  const byId = new Map(cur.tiers.map((t) => [t.id, t]));
  for (const id of deleted) {
    if (claims.history.has(id))
      conflict(`票档「${byId.get(id)!.name}」已有订单记录，不能删除；可把它的座位改到其他票档`, {
        tierId: id,
      });
  }
  desired.forEach((t, i) => {
    const old = byId.get(keys[i]!);
    if (old && old.priceFen !== t.priceFen && (claims.tierUnits.get(old.id) ?? 0) > 0) {
      conflict(`票档「${old.name}」已有售出或锁定的票，不能修改价格`, { tierId: old.id });
    }
  });
  for (const [seat, tier] of claims.seats) {
    const next = seatTier.get(seat);
    const label = cur.venueSeats.get(seat) ?? seat;
    if (next === undefined) conflict(`${label} 已售出或被锁定，不能停售`, { seatId: seat });
    if (next !== tier) conflict(`${label} 已售出或被锁定，不能改到其他票档`, { seatId: seat });
  }
  for (const [zone, units] of claims.zones) {
    if (units > 0 && zoneTier.get(zone)?.tierId !== cur.zoneTier.get(zone)) {
      conflict('站席区已有售出或锁定的票，不能停售或更换票档', { zoneId: zone });
    }
  }
}
