import type { ShowDetail } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { tapTarget } from '../../utils/a11y';

/** What 复制地址 puts on the clipboard: enough for a map app's search box. */
export function venueAddress(v: ShowDetail['venue']): string {
  return [v.city, v.address, v.name].filter(Boolean).join(' ');
}

/**
 * 场馆: name, city and address, and 复制地址 for a map app (the catalog has no coordinates, so no
 * map is drawn here and WeChat's openLocation cannot be used).
 */
export function VenueCard({ venue }: { venue: ShowDetail['venue'] }) {
  const copy = async () => {
    await Taro.setClipboardData({ data: venueAddress(venue) });
    void Taro.showToast({ title: '地址已复制，可在地图应用中搜索', icon: 'none' });
  };
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
      </View>
    </View>
  );
}
