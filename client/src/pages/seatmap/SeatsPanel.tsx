import type { SeatMapZone } from '@showtix/shared-types';
import { Text } from '@tarojs/components';
import type { SeatModel } from '../../seatmap/model';
import { tapTarget } from '../../utils/a11y';
import MapStage from './MapStage';
import { Legend } from './parts';
import SeatList from './SeatList';
import SelectedBar from './SelectedBar';
import type { SeatMapPageState } from './useSeatMapPage';

/** Selling seats: the tier legend, the map (or its list view) and the bar of picked seats. */
export default function SeatsPanel(p: {
  page: SeatMapPageState;
  model: SeatModel;
  zones: SeatMapZone[];
  onConfirm: () => void;
}) {
  const { model, zones } = p;
  const { selection, view, pick, statesVersion, onTapSeat } = p.page;
  const { selected, setSelected } = selection;
  const { asList, filter } = view;
  return (
    <>
      <Legend
        model={model}
        zoneTiers={new Set(zones.map((z) => z.tierId))}
        filter={filter}
        onFilter={view.setFilter}
      />
      <Text
        className="view-toggle"
        data-testid="view-toggle"
        onClick={() => view.setAsList(!asList)}
        {...tapTarget()}
      >
        {asList ? '返回座位图' : '列表选座'}
      </Text>
      {asList ? <SeatList model={model} selected={selected} onSeat={onTapSeat} filter={filter} /> : null}
      <MapStage
        hidden={asList}
        model={model}
        selected={selected}
        statesVersion={statesVersion}
        onTapSeat={onTapSeat}
        tierFilter={filter}
      />
      <SelectedBar
        model={model}
        selected={selected}
        limit={pick.limit}
        reached={pick.reached}
        onRemove={(i) => setSelected(selected.filter((s) => s !== i))}
        onConfirm={p.onConfirm}
      />
    </>
  );
}
