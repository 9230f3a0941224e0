// What 确认选座 / 立即购买 do: save the draft and open 确认订单, or, for 改签, send the exchange.
import type { SeatMapZone, SessionInfo, ShowDetail, Tier } from '@showtix/shared-types';
import { go } from '../../routes';
import { saveDraft } from '../../services/draft';
import type { SeatModel } from '../../seatmap/model';
import { draftBase, draftSeats } from './logic';
import type { ExchangeMode } from './useExchangeMode';
import { zonePrice } from './ZonePicker';

export interface CheckoutContext {
  sessionId: string;
  session: SessionInfo;
  show: ShowDetail | undefined;
  exchange: ExchangeMode | undefined;
}

export function confirmSeats(c: CheckoutContext, model: SeatModel, selected: readonly number[]) {
  const seats = draftSeats(model, selected);
  if (c.exchange) return c.exchange.confirm({ seatIds: seats.map((x) => x.id) }, c.sessionId);
  saveDraft({ ...draftBase(c.sessionId, c.session, c.show), seats });
  go('confirm', { sessionId: c.sessionId });
}

export function confirmZone(c: CheckoutContext, tiers: Tier[], zone: SeatMapZone, quantity: number) {
  if (c.exchange) return c.exchange.confirm({ zoneId: zone.id }, c.sessionId);
  saveDraft({
    ...draftBase(c.sessionId, c.session, c.show),
    zone: { id: zone.id, name: zone.name, priceFen: zonePrice(zone, tiers), quantity },
  });
  go('confirm', { sessionId: c.sessionId });
}
