import type { ShowSummary } from '@showtix/shared-types';
import { SHOW_CATEGORY_LABEL } from '../../services/shared';
import { Input, ScrollView, Text, View } from '@tarojs/components';
import { useState } from 'react';
import { usePullDownRefresh, stopPullDownRefresh } from '@tarojs/taro';
import ErrorPanel from '../../components/ErrorPanel';
import Icon from '../../components/icon/Icon';
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
import { feedCategories, feedCities, feedShows, type FeedFilter } from './feed';
import './index.scss';

export { sortShows } from './feed';

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

function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  return (
    <View className="search">
      <Icon name="search" color="ink3" />
      <Input
        className="search__input"
        data-testid="search-input"
        type="text"
        confirmType="search"
        placeholder="搜索演出、艺人、场馆"
        aria-label="搜索演出"
        value={value}
        onInput={(e) => onChange(e.detail.value)}
      />
      {value ? (
        <View
          className="search__clear"
          data-testid="search-clear"
          onClick={() => onChange('')}
          {...tapTarget({ label: '清除搜索' })}
        >
          <Icon name="close" color="ink3" size="sm" />
        </View>
      ) : null}
    </View>
  );
}

/** A row of filter chips (cities, categories): '' is the first chip, "all"; hidden below two choices. */
function FilterChips<T extends string>({
  kind,
  allLabel,
  options,
  value,
  onPick,
}: {
  kind: 'city' | 'category';
  allLabel: string;
  options: { value: T; label: string }[];
  value: T | '';
  onPick: (v: T | '') => void;
}) {
  if (options.length < 2) return null;
  return (
    <ScrollView scrollX className="chips" data-testid={`${kind}-chips`}>
      {[{ value: '' as const, label: allLabel }, ...options].map((o) => (
        <View
          key={o.value || 'all'}
          className={`chip${o.value === value ? ' chip--on' : ''}`}
          data-testid={`${kind}-chip`}
          onClick={() => onPick(o.value)}
          {...tapTarget({ pressed: o.value === value })}
        >
          <Text>{o.label}</Text>
        </View>
      ))}
    </ScrollView>
  );
}

export default function Index() {
  const shows = useLoad(listShows, []);
  const [filter, setFilter] = useState<FeedFilter>({ query: '', city: '', category: '' });
  usePullDownRefresh(() => {
    shows.reload();
    stopPullDownRefresh();
  });
  const all = shows.data ?? [];
  const categories = feedCategories(all);
  // A category whose last live show left the feed (after a refresh) no longer narrows it.
  const category = filter.category && categories.includes(filter.category) ? filter.category : '';
  const list = feedShows(all, { ...filter, category });
  const filtered = Boolean(filter.query.trim() || filter.city || category);
  return (
    <View className="page page--tabbed home">
      <View className="home__hero">
        <View className="home__top">
          <Text className="home__brand">秀票</Text>
          <Text className="home__slogan">好戏不等人，热门演出实时开抢</Text>
        </View>
        <SearchBox value={filter.query} onChange={(query) => setFilter((f) => ({ ...f, query }))} />
      </View>
      <FilterChips
        kind="category"
        allLabel="全部分类"
        options={categories.map((c) => ({ value: c, label: SHOW_CATEGORY_LABEL[c] }))}
        value={category}
        onPick={(c) => setFilter((f) => ({ ...f, category: c }))}
      />
      <FilterChips
        kind="city"
        allLabel="全部城市"
        options={feedCities(all).map((c) => ({ value: c, label: c }))}
        value={filter.city}
        onPick={(city) => setFilter((f) => ({ ...f, city }))}
      />
      <ScrollView scrollY className="home__list">
        {shows.loading && !shows.data ? <Loading /> : null}
        {shows.error && !shows.data ? (
          <ErrorPanel variant="inline" error={shows.error} onAction={shows.reload} />
        ) : null}
        {shows.data && list.length === 0 ? (
          <Empty
            text={filtered ? '没有找到相关演出，换个关键词、城市或分类试试' : '暂无在售演出，敬请期待'}
          />
        ) : null}
        {list.map((s) => (
          <ShowCard key={s.id} show={s} />
        ))}
      </ScrollView>
      <TabBar current="home" />
    </View>
  );
}
