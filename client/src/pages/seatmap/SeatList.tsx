import { Text, View } from '@tarojs/components';
import { useState } from 'react';
import type { SeatModel } from '../../seatmap/model';
import { rowsOf, sectionsOf, seatsOf } from '../../seatmap/seat-list';
import { tapTarget } from '../../utils/a11y';
import { formatYuan } from '../../utils/money';

function Chips(p: {
  items: string[];
  on?: string;
  testid: string;
  suffix?: string;
  onPick: (v: string) => void;
}) {
  return (
    <View className="seat-list__chips">
      {p.items.map((v) => (
        <View
          key={v}
          className={`seat-list__chip ${v === p.on ? 'seat-list__chip--on' : ''}`}
          data-testid={p.testid}
          onClick={() => p.onPick(v)}
          {...tapTarget({ pressed: v === p.on })}
        >
          <Text>
            {v}
            {p.suffix}
          </Text>
        </View>
      ))}
    </View>
  );
}

/**
 * 列表选座: section, row, seat, picked with the same rules (limit, taken) as a tap on the map. The
 * legend's tier filter holds here too: a seat of another tier is listed as not offered.
 */
export default function SeatList(p: {
  model: SeatModel;
  selected: number[];
  onSeat: (index: number) => void;
  filter?: number | null;
}) {
  const sections = sectionsOf(p.model);
  const [section, setSection] = useState(sections[0] ?? '');
  const rows = rowsOf(p.model, section);
  const [row, setRow] = useState(rows[0] ?? '');
  const shownRow = rows.includes(row) ? row : (rows[0] ?? '');
  return (
    <View className="seat-list" data-testid="seat-list">
      <Text className="seat-list__label">区域</Text>
      <Chips items={sections} on={section} testid="list-section" onPick={setSection} />
      <Text className="seat-list__label">排</Text>
      <Chips items={rows} on={shownRow} testid="list-row" suffix="排" onPick={setRow} />
      <Text className="seat-list__label">座位</Text>
      <View className="seat-list__chips">
        {seatsOf(p.model, section, shownRow).map((s) => {
          const on = p.selected.includes(s.index);
          const offered = p.filter == null || p.model.tierOf[s.index] === p.filter;
          const free = s.free && offered;
          const state = on ? '已选' : !s.free ? '已售' : offered ? '可选' : '非所选票档';
          return (
            <View
              key={s.index}
              className={`seat-list__seat ${on ? 'seat-list__seat--on' : ''} ${free ? '' : 'seat-list__seat--off'}`}
              data-testid="list-seat"
              onClick={() => (free || on) && p.onSeat(s.index)}
              {...tapTarget({
                pressed: on,
                label: `${section} ${shownRow}排 ${s.number}座 ${state}，${formatYuan(s.priceFen)}`,
              })}
            >
              <Text>
                {s.number}座 {state}
              </Text>
            </View>
          );
        })}
      </View>
    </View>
  );
}
