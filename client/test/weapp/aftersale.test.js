/**
 * The after-sales pages of issue 16 compiled for WeChat (dist/weapp), in miniprogram-simulate
 * with a fake API: 转赠 from the wallet (the offer, then the share card WeChat sends with its
 * code) and the receiving page (plain and real-name); 领取赠票; 候补 on the show page of a sold-out
 * session and 我的候补 on 我的.
 */
const { calls, routes, storage, openPage, until, reset, byClass, fire, text } = require('./mp');
const { offeredForTransfer, walletTicket } = require('../unit/fixtures');

const CODE = 'c'.repeat(43);
const T1 = 'TABCDEFGHJKLMNPQRSTU';

beforeEach(() => {
  reset();
  storage.set('showtix.token', 'tok');
});

const requested = (key) => calls.request.filter((r) => r.key === key);
const typeInto = (page, n, value) => fire(page, 'field__input', 'input', { detail: { value } }, n);
const pageText = (page) => page.dom.textContent.replace(/\s+/g, ' ');

const ticket = walletTicket(T1, { transferable: true });
const offered = offeredForTransfer(ticket, CODE);

const preview = (extra = {}) => ({
  showTitle: '星河巡回演唱会',
  venueName: '梅赛德斯-奔驰文化中心',
  startsAt: '2027-01-15T11:30:00.000Z',
  seat: { section: '内场A区', row: '3', number: '12' },
  zoneName: null,
  priceFen: 128_000,
  expiresAt: '2027-01-15T09:30:00.000Z',
  state: 'open',
  mine: false,
  realName: false,
  ...extra,
});

describe('转赠', () => {
  test('the wallet offers a ticket, then shows WeChat share button whose card opens the accept page', async () => {
    let wallet = [ticket];
    routes.set('GET /api/v1/tickets', () => ({ statusCode: 200, data: { items: wallet } }));
    routes.set(`POST /api/v1/tickets/${T1}/bind`, () => ({
      statusCode: 409,
      data: { error: { code: 'X' } },
    }));
    routes.set(`POST /api/v1/tickets/${T1}/transfer`, () => {
      wallet = [offered];
      return {
        statusCode: 200,
        data: {
          transferId: '1',
          ticketId: T1,
          state: 'open',
          code: CODE,
          expiresAt: offered.transferOffer.expiresAt,
        },
      };
    });
    const page = openPage('pages/tickets/index');
    await until(() => byClass(page, 'ticket__transfer').length, 'the 转赠 button');
    fire(page, 'ticket__transfer');
    await until(() => byClass(page, 'ticket__offer').length, 'the open offer');
    expect(calls.modal.map((m) => m.title)).toEqual(['转赠门票']);
    expect(requested(`POST /api/v1/tickets/${T1}/transfer`)).toHaveLength(1);
    expect(text(page, 'ticket__offer')).toContain('分享给好友');
    expect(text(page, 'ticket__offer')).not.toContain('复制转赠链接');

    // What WeChat sends when the fan taps the share button (its dataset carries the code).
    const card = page.instance.onShareAppMessage({
      from: 'button',
      target: { dataset: { code: CODE, title: ticket.showTitle } },
    });
    expect(card).toEqual({
      title: '送你一张《星河巡回演唱会》的门票',
      path: `/pages/transfer/index?code=${CODE}`,
    });
    page.detach();
  });

  test('the receiving page shows the ticket and accepts it into the wallet', async () => {
    routes.set(`GET /api/v1/transfers/${CODE}`, preview());
    routes.set(`POST /api/v1/transfers/${CODE}/accept`, { ticketId: 'TNEWTICKETAAAAAAAAAA', orderNo: 'N1' });
    const page = openPage('pages/transfer/index', { code: CODE });
    await until(() => byClass(page, 'transfer__accept').length, 'the accept button');
    expect(pageText(page)).toContain('内场A区 3排12座');
    expect(pageText(page)).toContain('票面价 ¥1,280');
    fire(page, 'transfer__accept');
    await until(() => calls.navigate.length, 'the wallet');
    expect(requested(`POST /api/v1/transfers/${CODE}/accept`).map((r) => r.data)).toEqual([{}]);
    expect(calls.navigate).toEqual([['reLaunch', '/pages/tickets/index']]);
    expect(calls.toast).toContain('已收下，门票在票夹中');
    page.detach();
  });

  test('real-name: the receiver types the attendee (checked first); an offer already taken says so', async () => {
    routes.set(`GET /api/v1/transfers/${CODE}`, preview({ realName: true }));
    routes.set('GET /api/v1/me/attendees', { items: [] });
    routes.set(`POST /api/v1/transfers/${CODE}/accept`, { ticketId: 'TNEWTICKETAAAAAAAAAA', orderNo: 'N1' });
    const page = openPage('pages/transfer/index', { code: CODE });
    await until(() => byClass(page, 'field__input').length === 2, 'the attendee form');
    fire(page, 'transfer__accept');
    await until(() => byClass(page, 'field__error').length, 'the form errors');
    expect(requested(`POST /api/v1/transfers/${CODE}/accept`)).toHaveLength(0);
    typeInto(page, 0, '李四');
    await until(() => byClass(page, 'field__error').length === 0, 'the errors cleared');
    typeInto(page, 1, '110105199001011232');
    // The page's data has the typed number (WeChat's setData ran) before the fan can tap again.
    await until(() => JSON.stringify(page.instance.data).includes('110105199001011232'), 'the typed ID');
    fire(page, 'transfer__accept');
    await until(() => calls.navigate.length, 'the wallet');
    expect(requested(`POST /api/v1/transfers/${CODE}/accept`)[0].data).toEqual({
      attendee: { name: '李四', idType: 'id_card', idNumber: '110105199001011232' },
    });
    page.detach();

    routes.set(`GET /api/v1/transfers/${CODE}`, preview({ state: 'accepted' }));
    const taken = openPage('pages/transfer/index', { code: CODE });
    await until(() => pageText(taken).includes('此门票已被接收'), 'the taken offer');
    expect(byClass(taken, 'transfer__accept')).toHaveLength(0);
    taken.detach();
  });
});

test('领取赠票: a malformed code is refused on the page; a good one claims the tickets', async () => {
  routes.set('POST /api/v1/comps/claim', { orderId: '42', tickets: 2 });
  const page = openPage('pages/comp/index');
  await until(() => byClass(page, 'comp-claim__code').length, 'the code field');
  typeInto(page, 0, 'abc');
  fire(page, 'comp-claim__go');
  await until(() => byClass(page, 'field__error').length, 'the hint');
  expect(text(page, 'field__error')).toBe('领取码为 10 位字母或数字');
  expect(requested('POST /api/v1/comps/claim')).toHaveLength(0);
  typeInto(page, 0, 'abcdefgh23');
  fire(page, 'comp-claim__go');
  await until(() => pageText(page).includes('已领取 2 张赠票'), 'the claimed tickets');
  expect(requested('POST /api/v1/comps/claim').map((r) => r.data)).toEqual([{ code: 'ABCDEFGH23' }]);
  fire(page, 'comp-claim__go');
  await until(() => calls.navigate.length, 'the wallet');
  expect(calls.navigate).toEqual([['reLaunch', '/pages/tickets/index']]);
  page.detach();
});

describe('候补', () => {
  const TIER = { id: 't1', name: '看台', priceFen: 38_000, color: '#2f7cf6' };
  const SESSION = {
    id: '7',
    showId: '3',
    startsAt: '2027-01-15T11:30:00.000Z',
    saleStartsAt: '2026-11-01T02:00:00.000Z',
    status: 'sold_out',
    seating: 'reserved',
    purchaseLimit: 2,
    realName: false,
    queueEnabled: false,
    holdMinutes: 15,
    tiers: [TIER],
  };
  const SHOW = {
    id: '3',
    title: '午夜蓝调 Live',
    category: 'concert',
    description: '',
    posterUrl: null,
    venue: { id: '1', name: '蓝调小剧场', city: '上海', address: '' },
    venueName: '蓝调小剧场',
    firstStartsAt: SESSION.startsAt,
    lastStartsAt: SESSION.startsAt,
    priceMinFen: 38_000,
    priceMaxFen: 38_000,
    refundRules: [],
    sessions: [SESSION],
  };
  const entry = (state, extra = {}) => ({
    id: '9',
    sessionId: '7',
    tierId: 't1',
    tierName: '看台',
    priceFen: 38_000,
    quantity: 2,
    state,
    ahead: 0,
    orderNo: null,
    offerExpiresAt: null,
    attendees: [],
    endReason: null,
    showTitle: '午夜蓝调 Live',
    startsAt: SESSION.startsAt,
    createdAt: '2026-12-01T03:00:00.000Z',
    ...extra,
  });

  test('the show page of a sold-out session joins the tier for the chosen quantity', async () => {
    routes.set('GET /api/v1/shows/3', SHOW);
    routes.set('POST /api/v1/sessions/7/waitlist', () => ({ statusCode: 201, data: entry('waiting') }));
    const page = openPage('pages/show/index', { id: '3' });
    await until(() => byClass(page, 'waitlist').length, 'the 候补 card');
    expect(text(page, 'waitlist')).toContain('已售罄');
    fire(page, 'btn--sm');
    await until(() => requested('POST /api/v1/sessions/7/waitlist').length, 'the join');
    expect(requested('POST /api/v1/sessions/7/waitlist')[0].data).toEqual({ tierId: 't1', quantity: 1 });
    await until(() => calls.toast.length, 'the toast');
    expect(calls.toast).toContain('已加入候补，有票退回时将为您保留并通知');
    page.detach();
  });

  test('我的候补 on 我的: an offer says until when to pay and opens its order', async () => {
    routes.set('GET /api/v1/me/waitlist', {
      items: [
        entry('offered', { orderNo: 'N900', offerExpiresAt: '2027-01-01T04:15:00.000Z' }),
        { ...entry('waiting', { ahead: 3 }), id: '8' },
      ],
    });
    routes.set('GET /api/v1/orders', { items: [], nextCursor: null });
    const page = openPage('pages/me/index');
    await until(() => byClass(page, 'waitlist__entry').length === 2, 'two entries');
    expect(pageText(page)).toContain('候补成功，待支付，请于');
    expect(pageText(page)).toContain('候补中（前面还有 3 位）');
    fire(page, 'btn--primary');
    await until(() => calls.navigate.length, 'the order page');
    expect(calls.navigate).toEqual([['navigateTo', '/pages/order/index?orderNo=N900']]);
    page.detach();
  });
});
