// The seat map page's plain logic (no React): what a tap on a seat does, the zones with their
// live counts, and the checkout draft the page hands to 确认订单.
import type { PurchaseQuota, SeatMapZone, SeatStates, SessionInfo, ShowDetail } from '@showtix/shared-types';
import type { CheckoutDraft, DraftSeat } from '../../services/draft';
import { seatLabel, type SeatModel } from '../../seatmap/model';
import { toggleSeat } from '../../seatmap/selection';

/** A tap on a seat: the new selection, or the toast that says why it did not change. */
export type SeatTap = { selected: number[] } | { toast: string };

export function tapSeat(
  model: SeatModel,
  selected: readonly number[],
  seat: number,
  pick: { limit: number; filter: number | null; quota: PurchaseQuota | undefined; reached: string },
): SeatTap {
  const { limit, filter, quota, reached } = pick;
  // The legend filter offers one tier: seats of the others are shown, not sold, until cleared.
  if (filter !== null && model.tierOf[seat] !== filter && !selected.includes(seat)) {
    return { toast: `当前只看「${model.tiers[filter]!.name}」，点图例中的票档可切换` };
  }
  const r = toggleSeat(model, selected, seat, limit);
  if (r.ok) return { selected: r.selected };
  // Over the limit because of tickets bought before: say so, not just the per-order limit.
  const held = r.reason === 'limit' && quota && quota.held > 0;
  return { toast: held ? reached || `您已购买本场 ${quota.held} 张，本场还可再选 ${limit} 张` : r.message };
}

/** The map's zones with the live availability the state polls bring, where they have it. */
export function liveZones(zones: SeatMapZone[], live: SeatStates['zones'] | undefined): SeatMapZone[] {
  return zones.map((z) => ({
    ...z,
    available: live?.find((l) => l.id === z.id)?.available ?? z.available,
  }));
}

/** The draft's session and show part; the seats or the zone are added by the caller. */
export function draftBase(
  sessionId: string,
  session: SessionInfo,
  show: ShowDetail | undefined,
): Omit<CheckoutDraft, 'seats' | 'zone'> {
  return {
    sessionId,
    showId: session.showId,
    showTitle: show?.title ?? '',
    venueName: show?.venue.name ?? show?.venueName ?? '',
    startsAt: session.startsAt,
    realName: session.realName,
    purchaseLimit: session.purchaseLimit,
    queueEnabled: session.queueEnabled,
  };
}

/** The selected seats as the draft carries them (id, label, tier name and price). */
export function draftSeats(model: SeatModel, selected: readonly number[]): DraftSeat[] {
  return selected.map((i) => {
    const tier = model.tiers[model.tierOf[i]!]!;
    return {
      id: model.ids[i]!,
      label: seatLabel(model.seats[i]!),
      tierName: tier.name,
      priceFen: tier.priceFen,
    };
  });
}
