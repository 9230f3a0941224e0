import type { RowDataPacket } from 'mysql2/promise';
import { maskIdNumber, maskName } from '@showtix/shared-types';
import type { Db } from '../../db/pool';
import { columnsOf } from '../schema';
import { maskPhone } from './views';

type Row = RowDataPacket & Record<string, any>;

/**
 * The attendees the purchase path records with an order, in `order_attendees` (the fair-access
 * migration: ID numbers encrypted, masked copies for display, a keyed hash for lookups). The
 * admin reads whatever that table offers: masked or plain columns, an ID hash, a phone. A keyed
 * hash can only be searched with the hasher of the module that writes it (`IdHasher`).
 */
export const ATTENDEES = 'order_attendees';

/** The stored keyed hashes an ID number may have (one per ID type: the search box has no type). */
export type IdHasher = (idNumber: string) => string[];

export interface AttendeeStore {
  exists: boolean;
  masked: boolean;
  idHash: boolean;
  plainId: boolean;
  phone: boolean;
}

const CACHE_MS = 60_000;
const cache = new WeakMap<Db, { at: number; value: AttendeeStore }>();

async function detect(db: Db): Promise<AttendeeStore> {
  const c = await columnsOf(db, ATTENDEES);
  return {
    exists: c.size > 0,
    masked: c.has('name_masked') && c.has('id_masked'),
    idHash: c.has('id_hash'),
    plainId: c.has('id_number'),
    phone: c.has('phone'),
  };
}

/** What the attendee table looks like: kept a minute once found, looked for again while missing. */
export async function attendeeStore(db: Db): Promise<AttendeeStore> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = await detect(db);
  if (value.exists) cache.set(db, { at: Date.now(), value });
  return value;
}

export interface AttendeeFilter {
  clauses: { sql: string; params: unknown[] }[];
  /** Search fields the stored attendees cannot answer (the result is then empty). */
  unsupported: string[];
}

export function attendeeFilter(
  s: AttendeeStore,
  f: { idNumber?: string; phone?: string },
  hasher?: IdHasher,
): AttendeeFilter {
  const out: AttendeeFilter = { clauses: [], unsupported: [] };
  const sub = (cond: string, value: unknown) =>
    out.clauses.push({
      sql: `o.id IN (SELECT order_id FROM ${ATTENDEES} WHERE ${cond})`,
      params: [value],
    });
  if (f.idNumber) {
    if (s.idHash && hasher) sub('id_hash IN (?)', hasher(f.idNumber));
    else if (s.plainId) sub('id_number = ?', f.idNumber);
    else out.unsupported.push('证件号');
  }
  if (f.phone) {
    if (s.phone) sub('phone = ?', f.phone);
    else out.unsupported.push('手机号');
  }
  return out;
}

export interface AttendeeView {
  name: string;
  idNumber: string;
  phone: string | null;
}

export async function attendeesOf(db: Db, orderIds: string[]): Promise<Map<string, AttendeeView[]>> {
  const out = new Map<string, AttendeeView[]>();
  const s = await attendeeStore(db);
  if (!orderIds.length || !s.exists) return out;
  const [rows] = await db.query<Row[]>(`SELECT * FROM ${ATTENDEES} WHERE order_id IN (?)`, [orderIds]);
  const sorted = [...rows].sort((a, b) => Number(a.position ?? a.id ?? 0) - Number(b.position ?? b.id ?? 0));
  for (const r of sorted) {
    const view: AttendeeView = s.masked
      ? { name: String(r.name_masked), idNumber: String(r.id_masked), phone: maskPhone(r.phone ?? null) }
      : {
          name: maskName(String(r.name ?? '')),
          idNumber: maskIdNumber(String(r.id_number ?? '')),
          phone: maskPhone(r.phone ?? null),
        };
    out.set(String(r.order_id), [...(out.get(String(r.order_id)) ?? []), view]);
  }
  return out;
}
