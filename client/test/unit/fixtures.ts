// Plain data only: the miniprogram-simulate tests (test/weapp) load this file without Taro stubs.
import type { SeatMap, SeatMapSeat, SessionInfo, Tier } from '@showtix/shared-types';
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
