/**
 * The TypeScript twin of the value formats the Lua scripts write (lua/_record.lua): what a seat's
 * value and an order's record look like in Redis. Everything that reads or writes them outside
 * the scripts (the rebuild from MySQL, the inventory service, the audits) goes through here, so a
 * format is written down twice only: once in Lua, once in this file, and the codec test holds the
 * two together.
 */

/** The order_id of a reserved unit's seat_claims / zone_claims row, and its Redis seat value's. */
export const RESERVED_ORDER_ID = '0';

/** A seat's value in the session's seats hash: held until a time, or sold; absent = available. */
export type SeatValue =
  { state: 'H'; orderId: string; holdUntilMs: number } | { state: 'S'; orderId: string };

const CHAR_S = 83; // 'S'

export const seatValue = {
  held: (orderId: string, holdUntilMs: number | string): string => `H|${orderId}|${holdUntilMs}`,
  sold: (orderId: string): string => `S|${orderId}`,
  /**
   * Held back from public sale by the organiser (reserveUnits-3.lua): sold to no order. MySQL
   * has the unit's claim with order_id 0 (RESERVED_ORDER_ID), whatever comp ticket it carries.
   */
  reserved: (): string => `S|${RESERVED_ORDER_ID}`,

  decode(v: string): SeatValue {
    const [state, orderId, until] = v.split('|');
    if (state === 'S') return { state, orderId: orderId! };
    if (state === 'H') return { state, orderId: orderId!, holdUntilMs: Number(until) };
    throw new Error(`not a seat value: ${v}`);
  },

  /** Sold, read without splitting (the seat map reads every seat of a session at once). */
  isSold: (v: string): boolean => v.charCodeAt(0) === CHAR_S,

  /** Held by an unexpired hold at nowMs (a hold past its time counts as free: it may be taken over). */
  isLiveHold: (v: string, nowMs: number): boolean =>
    v.charCodeAt(0) !== CHAR_S && Number(v.slice(v.lastIndexOf('|') + 1)) > nowMs,

  orderOf: (v: string): string => v.split('|')[1]!,

  /** What a seat's value means at nowMs: sold, held, or a hold that expired (free to take over). */
  stateAt: (v: string, nowMs: number): 'sold' | 'held' | 'expired' =>
    seatValue.isSold(v) ? 'sold' : seatValue.isLiveHold(v, nowMs) ? 'held' : 'expired',
};

/** The state of an order's record: held, sold, released. */
export type RecordState = 'H' | 'S' | 'R';

/** An order's record in the session's orders hash (field: the order id). */
export interface OrderRecord {
  state: RecordState;
  userId: string;
  qty: number;
  /** 's' (seats) or 'z<zoneId>' (general admission). */
  kind: string;
  /** Seat ids, or the zone's slot numbers. */
  units: string[];
  /** The idempotency field ('userId:key') or ''. */
  idem: string;
  /** Keyed hashes of the real-name attendees' ID documents. */
  idHashes: string[];
  /** Expired holds this order took over, 'seatId:orderId:holdUntilMs' each. */
  over: string[];
}

const list = (s: string | undefined): string[] => (s ? s.split(',') : []);

export const orderRecord = {
  /** state|userId|qty|kind|units|idemField|idHashes|over (recordString in _record.lua). */
  encode: (r: OrderRecord): string =>
    [
      r.state,
      r.userId,
      r.qty,
      r.kind,
      r.units.join(','),
      r.idem,
      r.idHashes.join(','),
      r.over.join(','),
    ].join('|'),

  decode(rec: string): OrderRecord {
    const f = rec.split('|');
    if (f.length < 6 || !['H', 'S', 'R'].includes(f[0]!)) throw new Error(`not an order record: ${rec}`);
    return {
      state: f[0] as RecordState,
      userId: f[1]!,
      qty: Number(f[2]),
      kind: f[3]!,
      units: list(f[4]),
      idem: f[5] ?? '',
      idHashes: list(f[6]),
      over: list(f[7]),
    };
  },

  /** The state alone, read without splitting. */
  stateOf: (rec: string): RecordState => rec[0] as RecordState,
};

/** The idempotency hash's value: the order a key booked and the hash of its request. */
export const idemValue = {
  encode: (orderId: string, requestHash: string): string => `${orderId}|${requestHash}`,
  orderOf: (v: string): string => v.slice(0, v.indexOf('|')),
};
