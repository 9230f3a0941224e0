import type { ShowDetail } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { tapTarget } from '../../utils/a11y';

/** What 复制地址 puts on the clipboard: enough for a map app's search box. */
export function venueAddress(v: Pick<ShowDetail['venue'], 'city' | 'address' | 'name'>): string {
  return [v.city, v.address, v.name].filter(Boolean).join(' ');
}

type Venue = ShowDetail['venue'];

/**
 * The browser's 导航: Tencent Maps' marker page (it takes GCJ-02, as the venue's coordinates
 * are), which offers the route from there.
 */
export function mapLink(v: Venue): string {
  const marker = `coord:${v.latitude},${v.longitude};title:${v.name};addr:${venueAddress(v)}`;
  return `https://apis.map.qq.com/uri/v1/marker?marker=${encodeURIComponent(marker)}&referer=showtix`;
}

/**
 * 导航: in WeChat, wx.openLocation shows the venue on WeChat's map, with its route button; in a
 * browser, the map page in a new tab. Only for a venue whose coordinates the organiser entered.
 */
export function openVenueMap(v: Venue): void {
  if (v.latitude === null || v.longitude === null) return;
  if (process.env.TARO_ENV === 'weapp') {
    void Taro.openLocation({
      latitude: v.latitude,
      longitude: v.longitude,
      name: v.name,
      address: venueAddress(v),
      scale: 16,
    }).catch(() => undefined);
    return;
  }
  window.open(mapLink(v), '_blank', 'noopener');
}

/**
 * 场馆: name, city and address, 复制地址 for a map app, and 导航 when the venue has coordinates
 * (GCJ-02, entered in the admin's venue form).
 */
export function VenueCard({ venue }: { venue: Venue }) {
  const copy = async () => {
    await Taro.setClipboardData({ data: venueAddress(venue) });
    void Taro.showToast({ title: '地址已复制，可在地图应用中搜索', icon: 'none' });
  };
  const located = venue.latitude != null && venue.longitude != null;
  return (
    <View className="card venue-card" data-testid="venue-card">
      <Text className="card__title">场馆</Text>
      <Text className="card__text">{venue.name}</Text>
      <View className="venue-card__row">
        <Text className="card__sub venue-card__address">
          {[venue.city, venue.address].filter(Boolean).join(' · ')}
        </Text>
        {venue.address ? (
          <View
            className="venue-card__copy"
            data-testid="venue-copy"
            onClick={() => void copy()}
            {...tapTarget()}
          >
            <Text>复制地址</Text>
          </View>
        ) : null}
        {located ? (
          <View
            className="venue-card__copy"
            data-testid="venue-navigate"
            onClick={() => openVenueMap(venue)}
            {...tapTarget()}
          >
            <Text>导航</Text>
          </View>
        ) : null}
      </View>
    </View>
  );
}
