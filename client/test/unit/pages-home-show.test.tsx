import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ShowSummary } from '@showtix/shared-types';
import taro, { resetTaro, router, share } from './stubs/taro';
import { ok, serveApi } from './fake-api';
import { SESSION, showSummary } from './fixtures';
import Index from '../../src/pages/index/index';
import { feedCategories, feedCities, feedShows } from '../../src/pages/index/feed';
import ShowPage from '../../src/pages/show/index';
import { purchaseNoteRows } from '../../src/pages/show/notices';

const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
const flush = () => act(() => jest.advanceTimersByTimeAsync(0));

beforeEach(() => {
  resetTaro();
  jest.useFakeTimers({ now: NOW });
});
afterEach(() => jest.useRealTimers());

const show = (
  id: string,
  title: string,
  city: string,
  status: ShowSummary['status'] = 'on_sale',
  category: ShowSummary['category'] = 'concert',
): ShowSummary =>
  showSummary(id, {
    title,
    category,
    city,
    venueName: city === '上海' ? '梅赛德斯-奔驰文化中心' : '工人体育场',
    status,
  });
const SHOWS = [
  show('1', '星河巡回演唱会', '上海'),
  show('2', '林间音乐节', '北京', 'on_sale', 'music'),
  show('3', '去年的话剧', '上海', 'ended', 'theatre'),
  show('4', '城市民谣夜', '上海', 'sold_out', 'music'),
];

/** 首页 with SHOWS in the feed, rendered and settled. */
async function openHome() {
  serveApi({ 'GET /api/v1/shows': ok({ items: SHOWS }) });
  render(<Index />);
  await flush();
}

/** The titles of the show cards on screen, in order. */
const titles = () => screen.queryAllByTestId('show-card').map((c) => c.querySelector('span')!.textContent);

describe('home feed', () => {
  it('leaves ended shows out, and narrows by words (title, venue, city) and city', () => {
    expect(feedShows(SHOWS, { query: '', city: '', category: '' }).map((s) => s.id)).toEqual(['1', '2', '4']);
    expect(feedShows(SHOWS, { query: '音乐', city: '', category: '' }).map((s) => s.id)).toEqual(['2']);
    expect(feedShows(SHOWS, { query: ' 奔驰  星河 ', city: '', category: '' }).map((s) => s.id)).toEqual([
      '1',
    ]);
    expect(feedShows(SHOWS, { query: '', city: '北京', category: '' }).map((s) => s.id)).toEqual(['2']);
    expect(feedShows(SHOWS, { query: '话剧', city: '', category: '' })).toEqual([]); // ended: gone from the feed
    expect(feedCities(SHOWS)).toEqual(['上海', '北京']);
  });

  it('narrows by category; the chips list the categories still in the feed, in the fixed order', () => {
    expect(feedShows(SHOWS, { query: '', city: '', category: 'music' }).map((s) => s.id)).toEqual(['2', '4']);
    expect(feedShows(SHOWS, { query: '', city: '上海', category: 'music' }).map((s) => s.id)).toEqual(['4']);
    expect(feedShows(SHOWS, { query: '', city: '', category: 'theatre' })).toEqual([]); // only an ended one
    // theatre's only show ended: no chip for it; concert before music as in SHOW_CATEGORIES.
    expect(feedCategories([...SHOWS].reverse())).toEqual(['concert', 'music']);
  });

  it('the page searches and filters by city chip, saying when nothing matches', async () => {
    await openHome();
    expect(screen.getAllByTestId('show-card')).toHaveLength(3);
    expect(screen.getAllByTestId('city-chip').map((c) => c.textContent)).toEqual([
      '全部城市',
      '上海',
      '北京',
    ]);
    fireEvent.click(screen.getAllByTestId('city-chip')[2]!);
    expect(screen.getAllByTestId('show-card')).toHaveLength(1);
    expect(screen.getAllByTestId('city-chip')[2]!.getAttribute('aria-pressed')).toBe('true');
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: '星河' } });
    expect(titles()).toEqual([]);
    expect(screen.getByText('没有找到相关演出，换个关键词、城市或分类试试')).toBeTruthy();
    fireEvent.click(screen.getAllByTestId('city-chip')[0]!);
    expect(screen.getAllByTestId('show-card')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('search-clear'));
    expect(screen.getAllByTestId('show-card')).toHaveLength(3);
  });

  it('category chips beside the city chips filter the feed, together with the city', async () => {
    await openHome();
    const chip = (label: string) =>
      screen.getAllByTestId('category-chip').find((c) => c.textContent === label)!;
    expect(screen.getAllByTestId('category-chip').map((c) => c.textContent)).toEqual([
      '全部分类',
      '演唱会',
      '音乐会',
    ]);
    expect(chip('全部分类').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(chip('音乐会'));
    expect(chip('音乐会').getAttribute('aria-pressed')).toBe('true');
    expect(titles().sort()).toEqual(['城市民谣夜', '林间音乐节']);
    fireEvent.click(screen.getAllByTestId('city-chip')[1]!); // 上海
    expect(titles()).toEqual(['城市民谣夜']);
    fireEvent.click(chip('演唱会'));
    expect(titles()).toEqual(['星河巡回演唱会']);
    fireEvent.click(screen.getAllByTestId('city-chip')[2]!); // 北京: no concert there
    expect(screen.getByText('没有找到相关演出，换个关键词、城市或分类试试')).toBeTruthy();
    fireEvent.click(chip('全部分类'));
    expect(titles()).toEqual(['林间音乐节']);
  });

  it('shows no category chips while every live show is of one category', async () => {
    serveApi({ 'GET /api/v1/shows': ok({ items: [SHOWS[0], SHOWS[2]] }) });
    render(<Index />);
    await flush();
    expect(screen.getAllByTestId('show-card')).toHaveLength(1);
    expect(screen.queryByTestId('category-chips')).toBeNull();
  });
});

describe('show page header and buttons', () => {
  const DETAIL = {
    ...show('3', '星河巡回演唱会', '上海'),
    venue: { id: '1', name: '梅赛德斯-奔驰文化中心', city: '上海', address: '世博大道1200号' },
    description: '',
    refundRules: [{ hoursBeforeStart: 168, feePercent: 0 }],
    sessions: [SESSION],
  };

  async function open(detail: object) {
    router.params = { id: '3' };
    const sent = serveApi({ 'GET /api/v1/shows/3': ok(detail) });
    render(<ShowPage />);
    await flush();
    return sent;
  }

  it('shows 购票须知 as rows of what holds for the session', async () => {
    await open(DETAIL);
    expect(screen.getAllByTestId('note-row').map((r) => r.textContent)).toEqual([
      '选座方式在线选座，对号入座',
      '限购每人每场限购 2 张',
      '实名实名制：一人一证一票，下单时填写观演人证件，入场时核验证件原件',
      '支付下单后请在 15 分钟内完成支付，超时订单自动取消',
      '入场凭「票夹」中的电子票二维码入场，二维码定时刷新，截图无效',
      '退票支持退票，手续费见下方退票规则',
    ]);
    const zoneQueued = { ...SESSION, seating: 'zone' as const, realName: false, queueEnabled: true };
    expect(purchaseNoteRows(zoneQueued, []).map((r) => r.key)).toEqual([
      'seating',
      'limit',
      'realname',
      'queue',
      'pay',
      'entry',
      'refund',
    ]);
    expect(purchaseNoteRows(zoneQueued, []).at(-1)!.text).toBe('本演出不支持退票');
  });

  it('想看 is kept on this phone; 分享 shares the show page (a link copied in a browser); 客服 says how to reach it', async () => {
    await open(DETAIL);
    const want = screen.getByTestId('want-button');
    expect([want.textContent, want.getAttribute('aria-pressed')]).toEqual(['想看', 'false']);
    fireEvent.click(want);
    expect([want.textContent, want.getAttribute('aria-pressed')]).toEqual(['已想看', 'true']);
    expect(taro.getStorageSync('showtix.wants')).toBe('["3"]');
    expect(share.handler!()).toEqual({ title: '星河巡回演唱会', path: '/pages/show/index?id=3' });
    await act(async () => fireEvent.click(screen.getByTestId('share-button')));
    expect(taro.setClipboardData).toHaveBeenCalledWith({ data: window.location.href });
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '链接已复制，可粘贴分享给好友' }),
    );
    fireEvent.click(screen.getByTestId('service-entry'));
    expect(taro.showModal).toHaveBeenLastCalledWith(expect.objectContaining({ title: '联系客服' }));
  });

  it('场馆 shows city and address; 复制地址 copies them for a map app', async () => {
    await open(DETAIL);
    const card = screen.getByTestId('venue-card');
    expect(card.textContent).toBe('场馆梅赛德斯-奔驰文化中心上海 · 世博大道1200号复制地址');
    await act(async () => fireEvent.click(screen.getByTestId('venue-copy')));
    expect(taro.setClipboardData).toHaveBeenCalledWith({ data: '上海 世博大道1200号 梅赛德斯-奔驰文化中心' });
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '地址已复制，可在地图应用中搜索' }),
    );
  });

  const mapAsks = (sent: { key: string }[]) =>
    sent.map((r) => r.key).filter((k) => k.startsWith('GET /api/v1/sessions/7'));

  it('buying straight to the seats asks for the map as it navigates', async () => {
    const sent = await open(DETAIL);
    expect(mapAsks(sent)).toEqual([]);
    fireEvent.click(screen.getByTestId('buy-button'));
    expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/seatmap/index?sessionId=7&showId=3' });
    // Asked before the seat-map page exists, which takes this load (seatmap-preload.test.ts).
    expect(mapAsks(sent).sort()).toEqual([
      'GET /api/v1/sessions/7',
      'GET /api/v1/sessions/7/layout',
      'GET /api/v1/sessions/7/seat-states',
    ]);
  });

  it('buying through the waiting room leaves the map to the moment the fan is let in', async () => {
    const sent = await open({ ...DETAIL, sessions: [{ ...SESSION, queueEnabled: true }] });
    fireEvent.click(screen.getByTestId('buy-button'));
    expect(taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/queue/index?sessionId=7&showId=3' });
    expect(mapAsks(sent)).toEqual([]);
  });

  it('the presale button says what it does and the time to the sale on two lines', async () => {
    const presale = {
      ...SESSION,
      status: 'presale' as const,
      queueEnabled: true,
      saleStartsAt: new Date(NOW + 2 * 86_400_000 + 3 * 3600_000).toISOString(),
    };
    await open({ ...DETAIL, status: 'presale', sessions: [presale] });
    const buy = screen.getByTestId('buy-button');
    expect(buy.className).toContain('btn--stack');
    expect(buy.querySelector('.btn__main')!.textContent).toBe('提前排队');
    expect(screen.getByTestId('sale-countdown').textContent).toMatch(/^2天 03:00:00 后开售$/);
  });
});
