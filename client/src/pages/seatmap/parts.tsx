import type { SessionInfo } from '@showtix/shared-types';
import { ScrollView, Text, View } from '@tarojs/components';
import type { SeatModel } from '../../seatmap/model';
import { tapTarget } from '../../utils/a11y';
import { formatYuan } from '../../utils/money';
import { formatShortDateTime } from '../../utils/time';

export type Seating = 'seats' | 'zones';

/**
 * A mixed session (seats and standing zones): which of the two the page sells. One order holds
 * one kind (the API takes seatIds, or zoneId and quantity), so the fan picks one here.
 */
export function SeatingSwitch(p: { mode: Seating; fromFen: number; onMode: (m: Seating) => void }) {
  const tab = (m: Seating) => `seating-switch__tab ${p.mode === m ? 'seating-switch__tab--on' : ''}`;
  return (
    <View className="seating-switch">
      <View
        className={tab('seats')}
        data-testid="seating-seats"
        onClick={() => p.onMode('seats')}
        {...tapTarget({ pressed: p.mode === 'seats' })}
      >
        <Text className="seating-switch__name">选座位</Text>
      </View>
      <View
        className={tab('zones')}
        data-testid="seating-zones"
        onClick={() => p.onMode('zones')}
        {...tapTarget({ pressed: p.mode === 'zones' })}
      >
        <Text className="seating-switch__name">站票</Text>
        <Text className="seating-switch__from">{formatYuan(p.fromFen)} 起</Text>
      </View>
    </View>
  );
}

/**
 * The price legend, which is also a filter: a tap on a tier shows only its seats in colour (the
 * others washed out, and not selectable), a second tap shows every tier again.
 */
export function Legend(p: {
  model: SeatModel;
  zoneTiers: Set<string>;
  filter: number | null;
  onFilter: (tier: number | null) => void;
}) {
  const { model, filter } = p;
  return (
    <View className="legend">
      {model.tiers.map((t, i) =>
        // Standing tiers have no seats on this map: they are sold under the 站票 tab.
        p.zoneTiers.has(t.id) ? null : (
          <View
            key={t.id}
            className={`legend__item legend__item--tier ${filter === i ? 'legend__item--on' : ''} ${
              filter !== null && filter !== i ? 'legend__item--dim' : ''
            }`}
            data-testid="legend-tier"
            onClick={() => p.onFilter(filter === i ? null : i)}
            {...tapTarget({ pressed: filter === i })}
          >
            <View className="legend__swatch" style={{ background: model.colors[i] }} />
            <Text className="legend__text">
              {t.name} {formatYuan(t.priceFen)}
            </Text>
          </View>
        ),
      )}
      <View className="legend__item">
        <View className="legend__swatch legend__swatch--off" />
        <Text className="legend__text">已售/锁定</Text>
      </View>
      <View className="legend__item">
        <View className="legend__swatch legend__swatch--sel" />
        <Text className="legend__text">已选</Text>
      </View>
    </View>
  );
}

const CLOSED: Partial<Record<SessionInfo['status'], string>> = { presale: '未开售', sold_out: '已售罄' };

/**
 * 场次: the show's other sessions, switched to without going back to 演出详情. Only sessions on
 * sale open a map; ended and cancelled ones are not listed. The selection belongs to a session,
 * so a switch starts afresh.
 */
export function SessionSwitch(p: { sessions: SessionInfo[]; current: string; onPick: (id: string) => void }) {
  const list = p.sessions.filter((s) => s.status !== 'ended' && s.status !== 'cancelled');
  if (list.length < 2) return null;
  return (
    <ScrollView scrollX className="session-switch" data-testid="session-switch">
      {list.map((s) => {
        const on = s.id === p.current;
        const closed = on ? undefined : CLOSED[s.status];
        return (
          <View
            key={s.id}
            className={`session-switch__chip ${on ? 'session-switch__chip--on' : ''} ${
              closed ? 'session-switch__chip--closed' : ''
            }`}
            data-testid="session-chip"
            onClick={() => !on && !closed && p.onPick(s.id)}
            {...tapTarget({ pressed: on })}
            {...(closed ? { 'aria-disabled': 'true' } : {})}
          >
            <Text className="session-switch__time">{formatShortDateTime(s.startsAt)}</Text>
            {closed ? <Text className="session-switch__note">{closed}</Text> : null}
          </View>
        );
      })}
    </ScrollView>
  );
}
