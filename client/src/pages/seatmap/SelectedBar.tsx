import { Button, ScrollView, Text, View } from '@tarojs/components';
import { BarTotal } from '../../components/PriceTag';
import { seatLabel, type SeatModel } from '../../seatmap/model';
import { selectionTotalFen } from '../../seatmap/selection';
import { tapTarget } from '../../utils/a11y';
import { disabledWhen } from '../../utils/flag';
import { formatYuan } from '../../utils/money';

/** The picked seats as chips (tap one to drop it), the running total and 确认选座. */
export default function SelectedBar(props: {
  model: SeatModel;
  selected: number[];
  limit: number;
  /** Why the fan cannot buy more here (already holds the limit), or "". */
  reached: string;
  onRemove: (i: number) => void;
  onConfirm: () => void;
}) {
  const { model, selected } = props;
  const total = selectionTotalFen(model, selected);
  return (
    <View className="select-bar">
      <ScrollView scrollX className="select-bar__chips">
        {props.reached ? (
          <Text className="select-bar__hint select-bar__hint--warn" data-testid="limit-reached">
            {props.reached}
          </Text>
        ) : selected.length === 0 ? (
          <Text className="select-bar__hint">点击座位选择，最多 {props.limit} 张；双指缩放查看</Text>
        ) : null}
        {selected.map((i) => (
          <View
            key={i}
            className="seat-chip"
            data-testid="seat-chip"
            onClick={() => props.onRemove(i)}
            {...tapTarget()}
          >
            <Text className="seat-chip__label">{seatLabel(model.seats[i]!)}</Text>
            <Text className="seat-chip__price">{formatYuan(model.tiers[model.tierOf[i]!]!.priceFen)} ×</Text>
          </View>
        ))}
      </ScrollView>
      <View className="bottom-bar bottom-bar--inline">
        <BarTotal label="合计" testid="running-total" fen={total} />
        <Button
          className="btn btn--primary btn--wide"
          data-testid="confirm-seats"
          {...disabledWhen(selected.length === 0 || Boolean(props.reached))}
          onClick={props.onConfirm}
        >
          {props.reached ? '已达限购' : selected.length ? `确认选座（${selected.length}）` : '请先选座'}
        </Button>
      </View>
    </View>
  );
}
