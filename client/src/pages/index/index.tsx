import type { ShowSummary } from '@showtix/shared-types';
import { ScrollView, Text, View } from '@tarojs/components';
import { usePullDownRefresh, stopPullDownRefresh } from '@tarojs/taro';
import ErrorPanel from '../../components/ErrorPanel';
import Loading, { Empty } from '../../components/Loading';
import Poster from '../../components/Poster';
import PriceTag from '../../components/PriceTag';
import { SessionBadge } from '../../components/StatusBadge';
import TabBar from '../../components/TabBar';
import { useCountdown } from '../../hooks/useCountdown';
import { useLoad } from '../../hooks/useLoad';
import { go } from '../../routes';
import { listShows } from '../../services/catalog';
import { formatCountdown, formatDateRange, formatDateTime } from '../../utils/time';
import { tapTarget } from '../../utils/a11y';
import './index.scss';

/** On-sale shows first, then upcoming ones by sale start, then the rest. */
export function sortShows(shows: ShowSummary[]): ShowSummary[] {
  const rank = { on_sale: 0, presale: 1, sold_out: 2, ended: 3, cancelled: 4 } as const;
  return [...shows].sort(
    (a, b) =>
      rank[a.status] - rank[b.status] ||
      (a.nextSaleStartsAt ?? a.firstStartsAt ?? '').localeCompare(
        b.nextSaleStartsAt ?? b.firstStartsAt ?? '',
      ),
  );
}

function SaleCountdown({ at }: { at: string }) {
  const left = useCountdown(at);
  if (left <= 0) return <Text className="show-card__sale">已开售，刷新查看</Text>;
  return (
    <Text className="show-card__sale">
      {formatDateTime(at)} 开售 · 还剩 <Text className="show-card__clock">{formatCountdown(left)}</Text>
    </Text>
  );
}

function ShowCard({ show }: { show: ShowSummary }) {
  return (
    <View
      className="show-card"
      data-testid="show-card"
      onClick={() => go('show', { id: show.id })}
      {...tapTarget()}
    >
      <Poster id={show.id} title={show.title} posterUrl={show.posterUrl} />
      <View className="show-card__body">
        <Text className="show-card__title">{show.title}</Text>
        <Text className="show-card__meta">{formatDateRange(show.firstStartsAt, show.lastStartsAt)}</Text>
        <Text className="show-card__meta">
          {show.city} · {show.venueName}
        </Text>
        {show.status === 'presale' && show.nextSaleStartsAt ? (
          <SaleCountdown at={show.nextSaleStartsAt} />
        ) : null}
        <View className="show-card__foot">
          {show.priceMinFen !== null ? (
            <PriceTag fen={show.priceMinFen} from={show.priceMaxFen !== show.priceMinFen} />
          ) : (
            <Text className="muted">票价待定</Text>
          )}
          <SessionBadge status={show.status} />
        </View>
      </View>
    </View>
  );
}

export default function Index() {
  const shows = useLoad(listShows, []);
  usePullDownRefresh(() => {
    shows.reload();
    stopPullDownRefresh();
  });
  const list = shows.data ? sortShows(shows.data) : [];
  return (
    <View className="page page--tabbed home">
      <View className="home__hero">
        <Text className="home__brand">秀票</Text>
        <Text className="home__slogan">好戏不等人，热门演出实时开抢</Text>
      </View>
      <ScrollView scrollY className="home__list">
        {shows.loading && !shows.data ? <Loading /> : null}
        {shows.error && !shows.data ? (
          <ErrorPanel variant="inline" error={shows.error} onAction={shows.reload} />
        ) : null}
        {shows.data && list.length === 0 ? <Empty text="暂无在售演出，敬请期待" /> : null}
        {list.map((s) => (
          <ShowCard key={s.id} show={s} />
        ))}
      </ScrollView>
      <TabBar current="home" />
    </View>
  );
}
