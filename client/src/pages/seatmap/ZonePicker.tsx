import type { SeatMapZone, Tier } from '@showtix/shared-types';
import { Button, ScrollView, Text, View } from '@tarojs/components';
import { useState } from 'react';
import PriceTag, { BarTotal } from '../../components/PriceTag';
import { formatYuan } from '../../utils/money';
import { disabledWhen, flag } from '../../utils/flag';
import { tapTarget } from '../../utils/a11y';
import Icon from '../../components/icon/Icon';

interface ZonePickerProps {
  zones: SeatMapZone[];
  tiers: Tier[];
  limit: number;
  zoneId: string | undefined;
  quantity: number;
  onZone: (id: string) => void;
  onQuantity: (q: number) => void;
  /** Shown under the title (a mixed session: one kind per order). */
  note?: string;
}

export function zonePrice(zone: SeatMapZone, tiers: Tier[]): number {
  return tiers.find((t) => t.id === zone.tierId)?.priceFen ?? 0;
}

/** How many a fan may take: the purchase limit, and never more than what is left. */
export function maxQuantity(zone: SeatMapZone | undefined, limit: number): number {
  return zone ? Math.max(0, Math.min(limit, zone.available)) : 0;
}

function stockText(z: SeatMapZone): string {
  if (z.available <= 0) return '已售罄';
  if (z.available <= 20) return `仅剩 ${z.available} 张`;
  return '可售';
}

/** General admission: pick a zone and how many tickets. */
export default function ZonePicker(p: ZonePickerProps) {
  const zone = p.zones.find((z) => z.id === p.zoneId);
  const max = maxQuantity(zone, p.limit);
  return (
    <View className="zones">
      <Text className="zones__title">选择区域</Text>
      {p.note ? (
        <Text className="zones__note" data-testid="zones-note">
          {p.note}
        </Text>
      ) : null}
      {p.zones.map((z) => (
        <View
          key={z.id}
          data-testid="zone-option"
          className={`zone ${z.id === p.zoneId ? 'zone--on' : ''} ${z.available <= 0 ? 'zone--out' : ''}`}
          onClick={() => z.available > 0 && p.onZone(z.id)}
          {...tapTarget({ pressed: z.id === p.zoneId })}
        >
          <Text className="zone__name">{z.name}</Text>
          <Text className="zone__stock">{stockText(z)}</Text>
          <PriceTag fen={zonePrice(z, p.tiers)} size="sm" />
        </View>
      ))}
      <View className="stepper-row">
        <Text className="stepper-row__label">数量（每单限购 {p.limit} 张）</Text>
        <View className="stepper">
          <Button
            className="stepper__btn"
            disabled={flag(p.quantity <= 1)}
            onClick={() => p.onQuantity(Math.max(1, p.quantity - 1))}
            aria-label="减少一张"
          >
            <Icon name="minus" size="sm" />
          </Button>
          <Text className="stepper__num" data-testid="zone-quantity">
            {p.quantity}
          </Text>
          <Button
            className="stepper__btn"
            data-testid="zone-plus"
            disabled={flag(p.quantity >= max)}
            onClick={() => p.onQuantity(Math.min(max, p.quantity + 1))}
            aria-label="增加一张"
          >
            <Icon name="plus" size="sm" />
          </Button>
        </View>
      </View>
      {zone ? (
        <Text className="zones__sum">{`${zone.name} × ${p.quantity} = ${formatYuan(zonePrice(zone, p.tiers) * p.quantity)}`}</Text>
      ) : null}
    </View>
  );
}

/** The zone the fan picked and how many: kept by the page, so a 座位/站票 switch loses nothing. */
export interface ZoneChoice {
  zoneId: string | undefined;
  quantity: number;
}

export function useZoneChoice() {
  return useState<ZoneChoice>({ zoneId: undefined, quantity: 1 });
}

/**
 * General admission as a whole screen: the zone list, the quantity and the bottom bar with the
 * total and 立即购买. A zone-only session shows only this; a mixed session shows it behind the
 * map's 站票 tab.
 */
export function ZoneSection(p: {
  zones: SeatMapZone[];
  tiers: Tier[];
  limit: number;
  choice: ZoneChoice;
  onChoice: (c: ZoneChoice) => void;
  onConfirm: (zone: SeatMapZone, quantity: number) => void;
  note?: string;
}) {
  const { zones, tiers, limit, choice } = p;
  const zone = zones.find((z) => z.id === choice.zoneId);
  return (
    <>
      <ScrollView scrollY className="seatmap__zones">
        <ZonePicker
          zones={zones}
          tiers={tiers}
          limit={limit}
          zoneId={choice.zoneId}
          quantity={choice.quantity}
          note={p.note}
          onZone={(id) => {
            const max = maxQuantity(
              zones.find((z) => z.id === id),
              limit,
            );
            p.onChoice({ zoneId: id, quantity: Math.max(1, Math.min(choice.quantity, max)) });
          }}
          onQuantity={(quantity) => p.onChoice({ ...choice, quantity })}
        />
      </ScrollView>
      <View className="bottom-bar">
        <BarTotal
          label="合计"
          testid="running-total"
          fen={zone ? zonePrice(zone, tiers) * choice.quantity : 0}
        />
        <Button
          className="btn btn--primary btn--wide"
          data-testid="confirm-zone"
          {...disabledWhen(!zone || limit <= 0)}
          onClick={() => zone && limit > 0 && p.onConfirm(zone, choice.quantity)}
        >
          立即购买
        </Button>
      </View>
    </>
  );
}
