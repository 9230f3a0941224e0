import type { RowDataPacket } from 'mysql2/promise';
import type { AdminOrderRow } from '@showtix/shared-types';
import type { Db } from '../../db/pool';

type Row = RowDataPacket & Record<string, any>;

/**
 * The attendees the purchase path records with an order, in `order_attendees` (the fair-access
 * migration), are kept encrypted, with masked copies for display and a keyed hash for lookups;
 * the hash can only be searched with the writer's hasher: the stored hashes an ID number may
 * have (one per ID type, as the search box has no type).
 */
export type IdHasher = (idNumber: string) => string[];

export interface AttendeeFilter {
  clauses: { sql: string; params: unknown[] }[];
  /** Search fields the stored attendees cannot answer (the result is then empty). */
  unsupported: string[];
}

export function attendeeFilter(f: { idNumber?: string; phone?: string }, hasher: IdHasher): AttendeeFilter {
  const out: AttendeeFilter = { clauses: [], unsupported: [] };
  if (f.idNumber)
    out.clauses.push({
      sql: 'o.id IN (SELECT order_id FROM order_attendees WHERE id_hash IN (?))',
      params: [hasher(f.idNumber)],
    });
  // The purchase path keeps no phone number with its attendees.
  if (f.phone) out.unsupported.push('手机号');
  return out;
}

export async function attendeesOf(
  db: Db,
  orderIds: string[],
): Promise<Map<string, AdminOrderRow['attendees']>> {
  const out = new Map<string, AdminOrderRow['attendees']>();
  if (!orderIds.length) return out;
  const [rows] = await db.query<Row[]>(
    'SELECT order_id, name_masked, id_masked FROM order_attendees WHERE order_id IN (?) ORDER BY position',
    [orderIds],
  );
  for (const r of rows) {
    const id = String(r.order_id);
    out.set(id, [...(out.get(id) ?? []), { name: r.name_masked, idNumber: r.id_masked, phone: null }]);
  }
  return out;
}
