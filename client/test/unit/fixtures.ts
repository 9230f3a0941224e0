// Plain data only: the miniprogram-simulate tests (test/weapp) load this file without Taro stubs.
import type { SeatMap, SeatMapSeat, SessionInfo, ShowSummary, Tier } from '@showtix/shared-types';
import type { CheckoutDraft } from '../../src/services/draft';

export const TIERS: Tier[] = [
  { id: 't1', name: 'VIP', priceFen: 188_000, color: '#e4393c' },
  { id: 't2', name: '看台', priceFen: 68_050 },
];

/** A 4 x 10 block: row 1 is VIP, the rest 看台; seat ids s1..s40 in row order. */
export function seatMap(overrides: Partial<Record<string, SeatMapSeat['state']>> = {}): SeatMap {
  const seats: SeatMapSeat[] = [];
  for (let r = 0; r < 4; r++) {
    for (let n = 0; n < 10; n++) {
      const id = `s${r * 10 + n + 1}`;
      seats.push({
        id,
        section: 'A区',
        row: String(r + 1),
        number: String(n + 1),
        x: n * 10,
        y: r * 12,
        tierId: r === 0 ? 't1' : 't2',
        state: overrides[id] ?? 'available',
      });
    }
  }
  return { sessionId: '7', seating: 'reserved', tiers: TIERS, seats, zones: [] };
}

/**
 * An arena-like block as the walk-through met it: two sections of 20 rows x 40 seats, 10 units
 * apart (1,600 seats), so that at fit zoom on a phone seats are ~4 px apart; `curve` bends rows.
 */
export function denseMap(curve = 0): SeatMap {
  const seats: SeatMapSeat[] = [];
  for (const [k, section] of ['内场A区', '内场B区'].entries())
    for (let r = 0; r < 20; r++)
      for (let n = 0; n < 40; n++)
        seats.push({
          id: `${k}-${r}-${n}`,
          section,
          row: String(r + 1),
          number: String(n + 1),
          x: k * 430 + n * 10,
          y: r * 10 + curve * ((n - 20) / 20) ** 2 * -1,
          tierId: r < 5 ? 't1' : 't2',
          state: 'available',
        });
  return { sessionId: '7', seating: 'reserved', tiers: TIERS, seats, zones: [] };
}

export const SESSION: SessionInfo = {
  id: '7',
  showId: '3',
  startsAt: '2027-01-15T11:30:00.000Z',
  saleStartsAt: '2026-11-01T02:00:00.000Z',
  status: 'on_sale',
  seating: 'reserved',
  purchaseLimit: 2,
  realName: true,
  queueEnabled: false,
  holdMinutes: 15,
  tiers: TIERS,
};

/** A show of the home feed (GET /api/v1/shows): on sale, a concert in 上海, unless `o` says otherwise. */
export function showSummary(id: string, o: Partial<ShowSummary> = {}): ShowSummary {
  return {
    id,
    title: `演出${id}`,
    category: 'concert',
    city: '上海',
    venueName: '场馆',
    posterUrl: null,
    firstStartsAt: '2027-01-15T11:30:00Z',
    lastStartsAt: '2027-01-16T11:30:00Z',
    priceMinFen: 38_000,
    priceMaxFen: 188_000,
    status: 'on_sale',
    nextSaleStartsAt: null,
    ...o,
  };
}

/** Show 3, the show of SESSION, as GET /api/v1/shows/3 starts; tests add its rules and sessions. */
export const SHOW_3 = {
  id: '3',
  title: '星河巡回演唱会',
  city: '上海',
  venueName: '梅赛德斯',
  venue: { id: '1', name: '梅赛德斯-奔驰文化中心', city: '上海', address: '世博大道1200号' },
};

/** The item of an order of session 7 for seat A区 1排`n`座 (seat id 10 + n), ticket T`nnn…`. */
export const orderItem = (n: number, priceFen: number, extra: Record<string, unknown> = {}) => ({
  seatId: String(10 + n),
  tierId: 't1',
  priceFen,
  section: 'A区',
  row: '1',
  number: String(n),
  ticketId: `T${String(n).repeat(19)}`,
  ...extra,
});

/** Seat A区 1排1座 (VIP) of session 7, as an order item. */
export const VIP_ITEM = {
  seatId: '11',
  tierId: 't1',
  priceFen: 188_000,
  section: 'A区',
  row: '1',
  number: '1',
};

/** Order N100 of VIP_ITEM, made at `now` and not paid yet: 90 seconds left. */
export function pendingVipOrder(now: number) {
  return {
    orderNo: 'N100',
    status: 'pending',
    sessionId: '7',
    amountFen: 188_000,
    expireAt: new Date(now + 90_000).toISOString(),
    createdAt: new Date(now).toISOString(),
    items: [VIP_ITEM],
  };
}

/** A ticketed order of session 7 of these items, paid a minute before `now`. */
export function ticketedOrder(now: number, orderNo: string, items: { priceFen: number }[]) {
  return {
    orderNo,
    status: 'ticketed',
    sessionId: '7',
    amountFen: items.reduce((sum, i) => sum + i.priceFen, 0),
    expireAt: new Date(now - 60_000).toISOString(),
    createdAt: new Date(now - 120_000).toISOString(),
    items,
  };
}

/** Ticket `ticketId` of session 7 (A区 1排1座) as GET /api/v1/tickets lists it: valid, no code. */
export function walletTicket(ticketId: string, extra: Record<string, unknown> = {}) {
  return {
    ticketId,
    orderNo: 'N1',
    sessionId: '7',
    showTitle: '星河巡回演唱会',
    venueName: '梅奔',
    startsAt: '2027-01-15T11:30:00.000Z',
    seat: { section: 'A区', row: '1', number: '1' },
    status: 'valid',
    qr: '',
    codeStepMs: 20_000,
    ...extra,
  };
}

/** That ticket offered for 转赠 under link code `code`, open until 2027-01-15 09:30 UTC. */
export const offeredForTransfer = <T extends object>(ticket: T, code: string) => ({
  ...ticket,
  status: 'transferring',
  transferable: false,
  transferOffer: { code, expiresAt: '2027-01-15T09:30:00.000Z' },
});

/** Valid mainland ID numbers (check characters X and 2). */
export const ID_A = '11010519491231002X';
export const ID_B = '110105199001011232';

/** A 联系手机 as the fan types it, and as the server shows it back (masked). */
export const PHONE = '13800138000';
export const PHONE_MASKED = '138****8000';

/** The fan's 常用观演人 as GET /api/v1/me/attendees answers them. */
export const SAVED = [
  {
    id: '1',
    name: '张三',
    idType: 'id_card',
    idNumber: ID_A,
    nameMasked: '张*',
    idMasked: '110***********002X',
  },
  {
    id: '2',
    name: '李四',
    idType: 'id_card',
    idNumber: ID_B,
    nameMasked: '李*',
    idMasked: '110***********1232',
  },
];

/** Two seats of session 7 (VIP and 看台, real-name), as the seat map hands them to 确认订单. */
export const SEAT_DRAFT: CheckoutDraft = {
  sessionId: '7',
  showId: '3',
  showTitle: '星河巡回演唱会',
  venueName: '梅赛德斯-奔驰文化中心',
  startsAt: '2027-01-15T11:30:00.000Z',
  realName: true,
  purchaseLimit: 2,
  seats: [
    { id: '11', label: 'A区 1排1座', tierName: 'VIP', priceFen: 188_000 },
    { id: '12', label: 'A区 2排1座', tierName: '看台', priceFen: 68_050 },
  ],
};

/** The order of SEAT_DRAFT's seats, made at `now` and held for 15 minutes. */
export function pendingOrder(now: number) {
  return {
    orderNo: 'N100',
    status: 'pending',
    sessionId: '7',
    amountFen: 256_050,
    expireAt: new Date(now + 15 * 60_000).toISOString(),
    createdAt: new Date(now).toISOString(),
    items: [],
  };
}

/** POST /api/v1/orders/N100/pay: what wx.requestPayment is given. */
export const PAY_RESPONSE = {
  prepayId: 'wx_prepay_1',
  payParams: {
    timeStamp: '1764561600',
    nonceStr: 'n1',
    package: 'prepay_id=wx_prepay_1',
    signType: 'RSA',
    paySign: 'c2ln',
  },
};
