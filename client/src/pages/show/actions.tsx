import type { ShowDetail } from '@showtix/shared-types';
import { Button, Text, View } from '@tarojs/components';
import Taro, { useShareAppMessage } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import Icon from '../../components/icon/Icon';
import { routeUrl } from '../../routes';
import { isWanted, toggleWanted } from '../../services/wants';
import { tapTarget } from '../../utils/a11y';
import { SaleReminderAction, WantCount, useSaleReminder } from './reminder';

const WEAPP = process.env.TARO_ENV === 'weapp';

/** What a share carries: the show's title and its page (the receiver opens it, no login needed). */
export function shareOf(d: Pick<ShowDetail, 'id' | 'title'>): { title: string; path: string } {
  return { title: d.title, path: routeUrl('show', { id: d.id }) };
}

/**
 * 分享: in WeChat a button with open-type "share" (the page answers useShareAppMessage); in a
 * browser the page's link is copied.
 */
function ShareButton() {
  if (WEAPP)
    return (
      <Button className="hero-action hero-action--button" openType="share" data-testid="share-button">
        <Icon name="share" color="white" size="sm" />
        <Text>分享</Text>
      </Button>
    );
  const copy = async () => {
    await Taro.setClipboardData({ data: window.location.href });
    void Taro.showToast({ title: '链接已复制，可粘贴分享给好友', icon: 'none' });
  };
  return (
    <View className="hero-action" data-testid="share-button" onClick={() => void copy()} {...tapTarget()}>
      <Icon name="share" color="white" size="sm" />
      <Text>分享</Text>
    </View>
  );
}

/**
 * 想看, 开售提醒 (a show not yet on sale) and 分享 under the show's title, over the 想看 count.
 * The 想看 heart is a mark kept on this phone; the count is of the fans who set 开售提醒 (the
 * server knows only those), and setting one marks the show 想看 here too.
 */
export function HeroActions({ d }: { d: ShowDetail }) {
  useShareAppMessage(() => shareOf(d));
  const [wanted, setWanted] = useState(() => isWanted(d.id));
  const reminder = useSaleReminder(d);
  useEffect(() => {
    if (reminder.on && !isWanted(d.id)) setWanted(toggleWanted(d.id));
  }, [reminder.on, d.id]);
  const toggle = () => {
    const on = toggleWanted(d.id);
    setWanted(on);
    void Taro.showToast({ title: on ? '已加入想看' : '已取消想看', icon: 'none' });
  };
  return (
    <>
      <WantCount count={reminder.count} />
      <View className="hero-actions">
        <View
          className={`hero-action${wanted ? ' hero-action--on' : ''}`}
          data-testid="want-button"
          onClick={toggle}
          {...tapTarget({ pressed: wanted })}
        >
          <Icon name="heart" color="white" size="sm" />
          <Text>{wanted ? '已想看' : '想看'}</Text>
        </View>
        <SaleReminderAction d={d} state={reminder} />
        <ShareButton />
      </View>
    </>
  );
}
