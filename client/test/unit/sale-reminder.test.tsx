import { act, fireEvent, render, screen } from '@testing-library/react';
import taro, { router } from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, refuse, serveApi, type Sent } from './fake-api';
import { SESSION } from './fixtures';
import ShowPage from '../../src/pages/show/index';
import MePage from '../../src/pages/me/index';
import { mapLink } from '../../src/pages/show/venue';

// 想看 / 开售提醒 and the venue's 导航 (issue 17 #13).
const NOW = new Date('2026-12-01T04:00:00.000Z').getTime();
loggedInFan(NOW);

const stub = taro as unknown as Record<string, jest.Mock>;
const TEMPLATES = { ticketed: 'TPL_TICKETED', sale_open: 'TPL_SALE_OPEN' };
const PRESALE = { ...SESSION, status: 'presale' as const, saleStartsAt: '2026-12-05T04:00:00.000Z' };
const VENUE = {
  id: '1',
  name: '梅赛德斯-奔驰文化中心',
  city: '上海',
  address: '世博大道1200号',
  latitude: 31.190617,
  longitude: 121.495853,
};
const DETAIL = {
  id: '3',
  title: '星河巡回演唱会',
  category: 'concert',
  city: '上海',
  venueName: VENUE.name,
  posterUrl: null,
  firstStartsAt: SESSION.startsAt,
  lastStartsAt: SESSION.startsAt,
  priceMinFen: 68_050,
  priceMaxFen: 188_000,
  status: 'presale',
  nextSaleStartsAt: PRESALE.saleStartsAt,
  description: '',
  venue: VENUE,
  wantCount: 12,
  refundRules: [],
  sessions: [PRESALE],
};
const REMINDER = {
  showId: '3',
  title: '星河巡回演唱会',
  saleStartsAt: PRESALE.saleStartsAt,
  state: 'waiting',
  createdAt: '2026-12-01T04:00:00.000Z',
  notifiedAt: null,
};

beforeEach(() => {
  router.params = { id: '3' };
  stub.requestSubscribeMessage = jest.fn(async () => ({ errMsg: 'ok', TPL_SALE_OPEN: 'accept' }));
  taro.setStorageSync('showtix.noticeTemplates', JSON.stringify(TEMPLATES));
});

async function openShow(detail: object, mine: object[] = []): Promise<Sent[]> {
  const sent = serveApi({
    'GET /api/v1/shows/3': ok(detail),
    'GET /api/v1/me/sale-reminders': ok({ items: mine }),
    'POST /api/v1/shows/3/sale-reminder': ok(REMINDER),
    'DELETE /api/v1/shows/3/sale-reminder': ok({ removed: true }),
    'POST /api/v1/me/subscriptions': ok({ items: [] }),
  });
  render(<ShowPage />);
  await tick();
  return sent;
}
const button = () => screen.getByTestId('sale-reminder');

describe('开售提醒 on the show page', () => {
  it('asks consent to the sale_open notice, then sets the reminder; the 想看 count follows', async () => {
    const sent = await openShow(DETAIL);
    expect(screen.getByTestId('want-count').textContent).toBe('12人想看');
    expect([button().textContent, button().getAttribute('aria-pressed')]).toEqual(['开售提醒', 'false']);
    await act(async () => fireEvent.click(button()));
    await tick();
    expect(stub.requestSubscribeMessage).toHaveBeenCalledWith({ tmplIds: ['TPL_SALE_OPEN'] });
    const keys = sent.map((s) => s.key);
    expect(keys).toContain('POST /api/v1/shows/3/sale-reminder');
    expect(sent.find((s) => s.key === 'POST /api/v1/me/subscriptions')?.data).toMatchObject({
      results: { TPL_SALE_OPEN: 'accept' },
    });
    expect(stub.requestSubscribeMessage!.mock.invocationCallOrder[0]).toBeLessThan(
      taro.request.mock.invocationCallOrder[keys.indexOf('POST /api/v1/shows/3/sale-reminder')]!,
    );
    expect([button().textContent, button().getAttribute('aria-pressed')]).toEqual(['已设提醒', 'true']);
    expect(screen.getByTestId('want-count').textContent).toBe('13人想看');
    // a reminder marks the show 想看 on this phone too
    expect(screen.getByTestId('want-button').textContent).toBe('已想看');
    expect(taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '已设置开售提醒，开售时通过微信通知您' }),
    );
  });

  it('shows a reminder set before, and cancels it after asking', async () => {
    const sent = await openShow(DETAIL, [REMINDER]);
    expect(button().textContent).toBe('已设提醒');
    stub.showModal!.mockResolvedValueOnce({ confirm: false, cancel: true });
    await act(async () => fireEvent.click(button()));
    expect(sent.map((s) => s.key)).not.toContain('DELETE /api/v1/shows/3/sale-reminder');
    await act(async () => fireEvent.click(button()));
    await tick();
    expect(sent.map((s) => s.key)).toContain('DELETE /api/v1/shows/3/sale-reminder');
    expect(button().textContent).toBe('开售提醒');
    expect(screen.getByTestId('want-count').textContent).toBe('11人想看');
  });

  it('a refused reminder says why and changes nothing on the page', async () => {
    serveApi({
      'GET /api/v1/shows/3': ok(DETAIL),
      'GET /api/v1/me/sale-reminders': ok({ items: [] }),
      'POST /api/v1/shows/3/sale-reminder': refuse(409, 'SALE_REMINDER_UNAVAILABLE'),
    });
    render(<ShowPage />);
    await tick();
    await act(async () => fireEvent.click(button()));
    await tick();
    expect(button().textContent).toBe('开售提醒');
    expect(screen.getByTestId('want-count').textContent).toBe('12人想看');
    expect(taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ icon: 'none' }));
  });

  it('is not offered (nor asked about) on a show on sale; no count when nobody wants it; no login just to look', async () => {
    const sent = await openShow({ ...DETAIL, wantCount: 0, sessions: [SESSION] });
    expect(screen.queryByTestId('sale-reminder')).toBeNull();
    expect(screen.queryByTestId('want-count')).toBeNull();
    expect(sent.map((s) => s.key)).not.toContain('GET /api/v1/me/sale-reminders');
    taro.removeStorageSync('showtix.token');
    const anon = await openShow(DETAIL);
    expect(anon.map((s) => s.key)).not.toContain('GET /api/v1/me/sale-reminders');
    expect(screen.getByTestId('sale-reminder').textContent).toBe('开售提醒');
  });
});

describe('导航 on the venue card', () => {
  const env = process.env.TARO_ENV;
  afterEach(() => (process.env.TARO_ENV = env));

  it('in WeChat opens the venue on the map (wx.openLocation) with its GCJ-02 coordinates', async () => {
    stub.openLocation = jest.fn(async () => ({ errMsg: 'openLocation:ok' }));
    await openShow(DETAIL);
    process.env.TARO_ENV = 'weapp'; // after loading: the requests' base URL depends on it too
    fireEvent.click(screen.getByTestId('venue-navigate'));
    expect(stub.openLocation).toHaveBeenCalledWith({
      latitude: 31.190617,
      longitude: 121.495853,
      name: '梅赛德斯-奔驰文化中心',
      address: '上海 世博大道1200号 梅赛德斯-奔驰文化中心',
      scale: 16,
    });
  });

  it("in a browser opens Tencent Maps' marker page in a new tab", async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    await openShow(DETAIL);
    fireEvent.click(screen.getByTestId('venue-navigate'));
    expect(open).toHaveBeenCalledWith(mapLink(VENUE), '_blank', 'noopener');
    expect(mapLink(VENUE)).toBe(
      'https://apis.map.qq.com/uri/v1/marker?marker=' +
        encodeURIComponent(
          'coord:31.190617,121.495853;title:梅赛德斯-奔驰文化中心;addr:上海 世博大道1200号 梅赛德斯-奔驰文化中心',
        ) +
        '&referer=showtix',
    );
    open.mockRestore();
  });

  it('is hidden for a venue without coordinates (复制地址 stays)', async () => {
    await openShow({ ...DETAIL, venue: { ...VENUE, latitude: null, longitude: null } });
    expect(screen.queryByTestId('venue-navigate')).toBeNull();
    expect(screen.getByTestId('venue-copy')).toBeTruthy();
  });
});

describe('开售提醒 on 我的', () => {
  it('lists the reminders, and a waiting one can be cancelled', async () => {
    const notified = { ...REMINDER, showId: '4', title: '林间音乐节', state: 'notified', saleStartsAt: null };
    const lists = [{ items: [REMINDER, notified] }, { items: [notified] }];
    const sent = serveApi({
      'GET /api/v1/staff/me': ok({ shows: [] }),
      'GET /api/v1/me/sale-reminders': () => ok(lists.length > 1 ? lists.shift() : lists[0]),
      'DELETE /api/v1/shows/3/sale-reminder': ok({ removed: true }),
    });
    render(<MePage />);
    await tick();
    expect(screen.getAllByTestId('sale-reminder-state').map((e) => e.textContent)).toEqual([
      expect.stringMatching(/^待开售，开售时通过微信通知您（.+ 开售）$/),
      '已开售，快去购票',
    ]);
    expect(screen.getAllByTestId('sale-reminder-cancel')).toHaveLength(1);
    fireEvent.click(screen.getByText('星河巡回演唱会'));
    expect(taro.navigateTo).toHaveBeenLastCalledWith({ url: '/pages/show/index?id=3' });
    await act(async () => fireEvent.click(screen.getByTestId('sale-reminder-cancel')));
    await tick();
    expect(sent.map((s) => s.key)).toContain('DELETE /api/v1/shows/3/sale-reminder');
    expect(screen.getAllByTestId('sale-reminder-entry')).toHaveLength(1);
  });
});
