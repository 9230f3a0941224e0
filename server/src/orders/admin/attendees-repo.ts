import type { AdminOrderRow } from '@showtix/shared-types';
import type { Db } from '../../db/pool';
import type { Rows } from '../../db/rows';

/**
 * What the purchase path keeps about the people of an order is encrypted, with masked copies
 * for display and keyed hashes for lookups: attendees' ID numbers (`order_attendees`) and the
 * buyer's 联系手机 (`orders`). Searching means hashing what support typed with the same keys:
 * an ID number under every ID type (the search box has no type), a phone number as it is.
 */
export interface PersonHasher {
  idHashes(idNumber: string): string[];
  phoneHash(phone: string): string;
}

export function personFilter(
  f: { idNumber?: string; phone?: string },
  hasher: PersonHasher,
): { sql: string; params: unknown[] }[] {
  const out: { sql: string; params: unknown[] }[] = [];
  if (f.idNumber)
    out.push({
      sql: 'o.id IN (SELECT order_id FROM order_attendees WHERE id_hash IN (?))',
      params: [hasher.idHashes(f.idNumber)],
    });
  if (f.phone) out.push({ sql: 'o.contact_phone_hash = ?', params: [hasher.phoneHash(f.phone)] });
  return out;
}

export async function attendeesOf(
  db: Db,
  orderIds: string[],
): Promise<Map<string, AdminOrderRow['attendees']>> {
  const out = new Map<string, AdminOrderRow['attendees']>();
  if (!orderIds.length) return out;
  const [rows] = await db.query<Rows<{ order_id: string; name_masked: string; id_masked: string }>>(
    'SELECT order_id, name_masked, id_masked FROM order_attendees WHERE order_id IN (?) ORDER BY position',
    [orderIds],
  );
  for (const r of rows) {
    const id = String(r.order_id);
    out.set(id, [...(out.get(id) ?? []), { name: r.name_masked, idNumber: r.id_masked }]);
  }
  return out;
}
