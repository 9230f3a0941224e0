import type { SessionInfo } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import LoadState from '../../components/LoadState';
import TurnTimer from '../../components/TurnTimer';
import { replace } from '../../routes';
import type { SeatMapLoad } from '../../seatmap/preload';
import { formatDateTime } from '../../utils/time';
import { confirmSeats, confirmZone, type CheckoutContext } from './checkout';
import { liveZones } from './logic';
import { SeatingSwitch, SessionSwitch } from './parts';
import SeatsPanel from './SeatsPanel';
import { useSeatMapPage, type SeatMapPageState } from './useSeatMapPage';
import { ZoneSection, zonePrice } from './ZonePicker';
import './index.scss';

function SeatMapHead(p: { title: string | undefined; session: SessionInfo; exchanging: number | undefined }) {
  return (
    <View className="seatmap__head">
      <Text className="seatmap__title">{p.title ?? ' '}</Text>
      <Text className="seatmap__sub">
        {formatDateTime(p.session.startsAt)} ·{' '}
        {p.exchanging ? `改签 ${p.exchanging} 张，请选择新座位` : `限购 ${p.session.purchaseLimit} 张`}
      </Text>
    </View>
  );
}

/** The loaded page: head, session and seating switches, then the seats or the standing zones. */
function SeatMapBody({ page, loaded }: { page: SeatMapPageState; loaded: SeatMapLoad }) {
  const { sessionId, show, model, exchange, view, pick, turn } = page;
  const { map, session } = loaded;
  const zones = liveZones(map.zones, page.zoneLive);
  const checkout: CheckoutContext = { sessionId, session, show: show.data, exchange };
  const mixed = Boolean(model) && zones.length > 0;
  return (
    <View className="page seatmap">
      <SeatMapHead title={show.data?.title} session={session} exchanging={exchange?.tickets.length} />
      {show.data?.sessions && !exchange ? (
        <SessionSwitch
          sessions={show.data.sessions}
          current={sessionId}
          onPick={(id) => replace('seatmap', { sessionId: id, showId: session.showId })}
        />
      ) : null}
      {pick.queued ? <TurnTimer admission={turn.admission} onRequeue={turn.requeue} /> : null}
      {mixed ? (
        <SeatingSwitch
          mode={view.seating}
          fromFen={Math.min(...zones.map((z) => zonePrice(z, map.tiers)))}
          onMode={view.setSeating}
        />
      ) : null}
      {model && view.seating === 'seats' ? (
        <SeatsPanel
          page={page}
          model={model}
          zones={zones}
          onConfirm={() => confirmSeats(checkout, model, page.selection.selectedRef.current)}
        />
      ) : (
        <ZoneSection
          zones={zones}
          tiers={map.tiers}
          limit={pick.limit}
          choice={view.zoneChoice}
          onChoice={view.setZoneChoice}
          onConfirm={(zone, quantity) => confirmZone(checkout, map.tiers, zone, quantity)}
          note={pick.reached || (mixed ? '座位与站票需分开下单' : undefined)}
        />
      )}
    </View>
  );
}

export default function SeatMapPage() {
  const page = useSeatMapPage();
  if (!page.data.data) {
    return (
      <View className="page">
        <LoadState loaded={page.data} text="正在加载座位图…" />
      </View>
    );
  }
  return <SeatMapBody page={page} loaded={page.data.data} />;
}
