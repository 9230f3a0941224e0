import type { AdminSessionDetail, TierSpecInput, VenueDetail } from '@showtix/shared-types';
import { nextColor } from '../../seatmap/colors';
import { yuanToFen } from '../../utils/money';

/** A tier being edited. `key` is local; `id` is set for tiers that exist on the server. */
export interface TierDraft {
  key: string;
  id?: string;
  name: string;
  priceYuan: number | null;
  color: string;
  /** Units in live orders: the price is locked and the tier cannot be deleted. */
  claimed: number;
  /** Set for a standing-zone tier. */
  zoneName?: string;
}

export interface TierState {
  tiers: TierDraft[];
  /** seat id -> tier key; seats not in the map are not on sale. */
  seatTier: Map<string, string>;
}

let counter = 0;
export const newKey = () => `t${++counter}`;

/** Default tier colours: the fan map's palette without its orange, which the dashboard uses for held seats. */
export const TIER_COLORS = [
  '#e4393c',
  '#2f7cf6',
  '#13a8a8',
  '#7b61ff',
  '#52a41a',
  '#c41d7f',
  '#d4380d',
  '#8c6d1f',
];

export function colorAt(i: number): string {
  return TIER_COLORS[i % TIER_COLORS.length]!;
}

/** A new tier's colour: never one the session's tiers already use (the standing zone's teal included). */
export function nextTierColor(tiers: Pick<TierDraft, 'color'>[]): string {
  return nextColor(
    TIER_COLORS,
    tiers.map((t) => t.color),
  );
}

/** A new seated tier appended to the drafts, with a colour of its own. */
export function addSeatTier(state: TierState, name: string): TierState {
  const tier: TierDraft = {
    key: newKey(),
    name,
    priceYuan: 680,
    color: nextTierColor(state.tiers),
    claimed: 0,
  };
  return { ...state, tiers: [...state.tiers, tier] };
}

/** A standing zone put on sale in a tier of its own, with a colour of its own. */
export function addZoneTier(state: TierState, zoneName: string): TierState {
  return { ...state, tiers: [...state.tiers, zoneTier(zoneName, nextTierColor(state.tiers))] };
}

/** A standing zone on sale in a tier of its own, named after it, at the default price. */
export function zoneTier(zoneName: string, color: string): TierDraft {
  return { key: newKey(), name: zoneName, priceYuan: 280, color, claimed: 0, zoneName };
}

/** A new session: every seat in one tier, every standing zone on sale in its own tier. */
export function initialState(venue: VenueDetail): TierState {
  const main: TierDraft = { key: newKey(), name: '看台', priceYuan: 380, color: colorAt(0), claimed: 0 };
  let state: TierState = {
    tiers: venue.seats.length ? [main] : [],
    seatTier: new Map(venue.seats.map((s) => [s.id, main.key])),
  };
  for (const z of venue.zones) state = addZoneTier(state, z.name);
  return state;
}

/** An existing session's tiers and seat map as drafts. */
export function stateFromSession(s: AdminSessionDetail): TierState {
  const keyOf = new Map<string, string>();
  const tiers = s.tiers.map((t, i): TierDraft => {
    const key = newKey();
    keyOf.set(t.id, key);
    return {
      key,
      id: t.id,
      name: t.name,
      priceYuan: t.priceFen / 100,
      color: t.color ?? colorAt(i),
      claimed: t.claimed,
      ...(t.zoneName ? { zoneName: t.zoneName } : {}),
    };
  });
  const seatTier = new Map(Object.entries(s.seatTiers).map(([seat, tier]) => [seat, keyOf.get(tier)!]));
  return { tiers, seatTier };
}

export function problems(state: TierState): string[] {
  const out: string[] = [];
  const names = state.tiers.map((t) => t.name.trim());
  if (names.some((n) => !n)) out.push('票档名称不能为空');
  if (new Set(names).size !== names.length) out.push('票档名称不能重复');
  for (const t of state.tiers)
    if (yuanToFen(t.priceYuan ?? '') === undefined) out.push(`「${t.name || '未命名'}」的票价不正确`);
  if (state.seatTier.size === 0 && !state.tiers.some((t) => t.zoneName))
    out.push('至少要有一个座位或站席区开售');
  return out;
}

/** The API's tiers: explicit seat lists (an empty list means "no seats", never "the rest"). */
export function toTierSpecs(state: TierState): TierSpecInput[] {
  const seatsOf = new Map<string, string[]>();
  for (const [seat, key] of state.seatTier) seatsOf.set(key, [...(seatsOf.get(key) ?? []), seat]);
  return state.tiers.map((t) => ({
    ...(t.id ? { id: t.id } : {}),
    name: t.name.trim(),
    priceFen: yuanToFen(t.priceYuan ?? '')!,
    color: t.color,
    ...(t.zoneName ? { zoneName: t.zoneName } : { seatIds: seatsOf.get(t.key) ?? [] }),
  }));
}

/**
 * The selection after a pick on the seat map: a box or lasso replaces it (or adds to it, with
 * Shift); a click toggles, so clicking a picked row again drops it.
 */
export function nextSelection(
  prev: ReadonlySet<string>,
  ids: string[],
  mode: string,
  additive: boolean,
): Set<string> {
  if (mode === 'box' || mode === 'lasso') return new Set(additive ? [...prev, ...ids] : ids);
  const next = new Set(prev);
  const all = ids.every((id) => next.has(id));
  for (const id of ids) all ? next.delete(id) : next.add(id);
  return next;
}

/**
 * The selected seats painted with tier `key` (undefined: not for sale). Sold or held seats keep
 * their tier; `locked` counts them.
 */
export function paintSeats(
  seatTier: ReadonlyMap<string, string>,
  selected: Iterable<string>,
  claimed: ReadonlySet<string>,
  key: string | undefined,
): { seatTier: Map<string, string>; locked: number } {
  const next = new Map(seatTier);
  let locked = 0;
  for (const id of selected) {
    if (claimed.has(id)) {
      locked++;
      continue;
    }
    if (key) next.set(id, key);
    else next.delete(id);
  }
  return { seatTier: next, locked };
}
