/**
 * The compiled seat-map page (dist/weapp) in miniprogram-simulate: legend, taps on the canvas
 * hit-tested by the compiled code, the purchase limit, the running total, and the hand-over to
 * the order confirmation page.
 */
const {
  calls,
  canvas,
  routes,
  storage,
  openPage,
  until,
  reset,
  byClass,
  fire,
  text,
  tapToNavigate,
  wxAttr,
} = require('./mp');
const { colourAt } = require('./canvas');
const { denseMap, seatMap, SESSION } = require('../unit/fixtures');
const { buildModel, SELECTED_COLOR, UNAVAILABLE_COLOR } = require('../../src/seatmap/model');
const { fitView, toScreen } = require('../../src/seatmap/viewport');

// The weapp canvas falls back to the window's width and 60% of its height (no canvas node here).
const WIDTH = 375;
const HEIGHT = Math.round(667 * 0.6);
const map = seatMap({ s5: 'sold' });
const model = buildModel(map);
const view = fitView(model.bounds, model.seatSize, WIDTH, HEIGHT);
const point = (id) => toScreen(view, model.xs[model.index.get(id)], model.ys[model.index.get(id)]);

/**
 * The seat map as the server serves it to the page: the static layout (no states, a version)
 * and the live states naming that layout version.
 */
function serveMap(m, version = 'L1') {
  const layout = {
    sessionId: m.sessionId,
    version,
    seating: m.seating,
    tiers: m.tiers,
    seats: m.seats.map(({ state: _state, ...seat }) => seat),
    zones: m.zones.map(({ available: _available, ...zone }) => zone),
  };
  const held = m.seats.filter((x) => x.state === 'held').map((x) => x.id);
  const sold = m.seats.filter((x) => x.state === 'sold').map((x) => x.id);
  const zones = m.zones.map((z) => ({ id: z.id, available: z.available }));
  routes.set(`GET /api/v1/sessions/${m.sessionId}/seatmap`, { ...m, layoutVersion: version });
  routes.set(`GET /api/v1/sessions/${m.sessionId}/layout`, layout);
  routes.set(`GET /api/v1/sessions/${m.sessionId}/seat-states`, {
    sessionId: m.sessionId,
    version: 'v1',
    full: true,
    layoutVersion: version,
    held,
    sold,
    zones,
  });
}

function serve() {
  serveMap(map);
  routes.set('GET /api/v1/sessions/7', { ...SESSION, realName: false });
  routes.set('GET /api/v1/shows/3', {
    id: '3',
    title: '星河巡回演唱会',
    venueName: '梅奔',
    venue: { id: '1', name: '梅赛德斯-奔驰文化中心', city: '上海', address: '' },
  });
}

beforeEach(() => {
  reset();
  serve();
});

const total = (page) => text(page, 'bottom-bar__info').replace('合计', '');

/** What the legend says for seatMap()'s two tiers, in order. */
const LEGEND = ['VIP ¥1,880', '看台 ¥680.50', '已售/锁定', '已选'];
const legend = (page) => byClass(page, 'legend__text').map((e) => e.textContent);

test('taps on the canvas select seats up to the limit with a running total', async () => {
  const page = openPage('pages/seatmap/index', { sessionId: '7', showId: '3' });
  await until(() => byClass(page, 'legend__item').length === 4, 'the legend');
  expect(legend(page)).toEqual(LEGEND);
  expect(text(page, 'seatmap__title')).toBe('星河巡回演唱会');

  fire(page, 'seat-canvas__canvas', 'tap', { detail: point('s1') });
  await until(() => byClass(page, 'seat-chip').length === 1, 'the first seat');
  expect(text(page, 'seat-chip__label')).toBe('A区 1排1座');
  expect(total(page)).toBe('¥1,880');

  fire(page, 'seat-canvas__canvas', 'tap', { detail: point('s11') });
  await until(() => byClass(page, 'seat-chip').length === 2, 'the second seat');
  expect(total(page)).toBe('¥2,560.50');

  fire(page, 'seat-canvas__canvas', 'tap', { detail: point('s12') });
  await until(() => calls.toast.includes('本场每单限购 2 张'), 'the limit toast');
  fire(page, 'seat-canvas__canvas', 'tap', { detail: point('s5') });
  await until(() => calls.toast.includes('该座位已售出，请选择其他座位'), 'the sold toast');
  expect(byClass(page, 'seat-chip')).toHaveLength(2);

  fire(page, 'seat-chip', 'tap'); // a chip removes its seat
  await until(() => byClass(page, 'seat-chip').length === 1, 'the removal');
  expect(total(page)).toBe('¥680.50');

  expect(await tapToNavigate(page, 'btn--primary', 'navigation')).toEqual([
    ['navigateTo', '/pages/confirm/index?sessionId=7'],
  ]);
  expect(JSON.parse(storage.get('showtix.draft'))).toMatchObject({
    sessionId: '7',
    showTitle: '星河巡回演唱会',
    seats: [{ id: 's11', label: 'A区 2排1座', priceFen: 68050 }],
  });
  page.detach();
});

test('a mixed session sells its standing zone behind the 站票 tab', async () => {
  const mixed = seatMap();
  mixed.tiers = [...mixed.tiers, { id: 'z1t', name: '内场站席', priceFen: 28_000 }];
  mixed.zones = [{ id: 'z1', name: '内场站席', tierId: 'z1t', capacity: 100, available: 50 }];
  serveMap(mixed, 'L2'); // a new layout version: the page fetches it again
  const page = openPage('pages/seatmap/index', { sessionId: '7', showId: '3' });
  await until(() => byClass(page, 'seating-switch__tab').length === 2, 'the 座位/站票 switch');
  expect(legend(page)).toEqual(LEGEND);
  expect(text(page, 'seating-switch__tab', 1)).toBe('站票¥280 起');
  // WeChat's screen reader reads aria-role / aria-label: the compiled templates must carry them.
  const tabs = byClass(page, 'seating-switch__tab');
  expect(tabs.map((e) => wxAttr(page, e, 'aria-role'))).toEqual(['button', 'button']);
  expect(tabs.map((e) => wxAttr(page, e, 'aria-pressed'))).toEqual(['true', 'false']);
  fire(page, 'seating-switch__tab', 'tap', {}, 1);
  await until(() => byClass(page, 'zone').length === 1, 'the zone list');
  expect(byClass(page, 'seat-canvas')).toHaveLength(0);
  fire(page, 'zone', 'tap');
  await until(() => byClass(page, 'zone--on').length === 1, 'the zone picked');
  fire(page, 'stepper__btn', 'tap', {}, 1);
  await until(() => text(page, 'stepper__num') === '2', 'two tickets');
  expect(total(page)).toBe('¥560');
  expect(await tapToNavigate(page, 'btn--primary', 'navigation')).toEqual([
    ['navigateTo', '/pages/confirm/index?sessionId=7'],
  ]);
  expect(JSON.parse(storage.get('showtix.draft')).zone).toEqual({
    id: 'z1',
    name: '内场站席',
    priceFen: 28_000,
    quantity: 2,
  });
  page.detach();
});

test('the compiled page draws the known layout on a Canvas 2D node: tier colours, sold grey, the pick in green', async () => {
  Object.assign(canvas, { enabled: true, width: WIDTH, height: HEIGHT });
  const page = openPage('pages/seatmap/index', { sessionId: '7', showId: '3' });
  const tier = (id) => model.colors[model.tierOf[model.index.get(id)]];
  await until(() => colourAt(point('s1')) !== undefined, 'the first frame');
  const last = () => canvas.frames[canvas.frames.length - 1];
  expect(last().texts.map((t) => t.text)).toContain('舞 台');
  for (const s of map.seats)
    expect([s.id, colourAt(point(s.id))]).toEqual([
      s.id,
      s.state === 'sold' ? UNAVAILABLE_COLOR : tier(s.id),
    ]);
  expect(tier('s1')).not.toBe(tier('s11')); // two tiers, two colours

  fire(page, 'seat-canvas__canvas', 'tap', { detail: point('s1') });
  await until(() => colourAt(point('s1')) === SELECTED_COLOR, 'the tapped seat drawn selected');
  expect(colourAt(point('s2'))).toBe(tier('s2'));
  await until(() => text(page, 'seat-chip__label') === 'A区 1排1座', 'the chip');
  fire(page, 'seat-chip', 'tap'); // removing it from the chips paints it back in its tier colour
  await until(() => colourAt(point('s1')) === tier('s1'), 'the seat drawn free again');
  page.detach();
});

test('the compiled page navigates a dense map: a tap zooms in, rows, section names and the minimap are drawn; the legend filters; 全览', async () => {
  const dense = denseMap();
  serveMap(dense, 'L-dense'); // a layout version of its own: the app caches layouts by version
  const m = buildModel(dense);
  const v = fitView(m.bounds, m.seatSize, WIDTH, HEIGHT);
  const at = (id) => toScreen(v, m.xs[m.index.get(id)], m.ys[m.index.get(id)]);
  Object.assign(canvas, { enabled: true, width: WIDTH, height: HEIGHT });
  const page = openPage('pages/seatmap/index', { sessionId: '7', showId: '3' });
  const last = () => canvas.frames[canvas.frames.length - 1];
  await until(() => last()?.fills.length, 'the first frame');
  const rowNumbers = () => last().texts.filter((t) => /^\d+$/.test(t.text));
  expect(rowNumbers()).toEqual([]);

  const frames = canvas.frames.length;
  fire(page, 'seat-canvas__canvas', 'tap', { detail: at('0-12-20') });
  await until(() => canvas.frames.length > frames && rowNumbers().length > 3, 'the zoomed frame');
  expect(byClass(page, 'seat-chip')).toHaveLength(0); // a zoom, not a pick
  expect(last().texts.map((t) => t.text)).toContain('内场A区');
  expect(last().strokes.some((s) => s.color === '#e4393c')).toBe(true); // the minimap's frame

  // The legend: 看台 only; VIP seats are washed out.
  fire(page, 'legend__item--tier', 'tap', {}, 1);
  await until(() => last().fills.some((f) => f.color === m.faded[0]), 'VIP washed out');
  expect(last().fills.some((f) => f.color === m.colors[1] && f.rects.length)).toBe(true);

  // 全览: the whole map again, no row numbers.
  fire(page, 'zoom__btn--all', 'tap');
  await until(() => rowNumbers().length === 0, 'the fit view');
  page.detach();
});
