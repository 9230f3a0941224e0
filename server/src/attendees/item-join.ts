/**
 * The SQL join from an order item to its real-name attendee. An order writes its attendees with
 * `position` = the index of their item among the order's items in id order (orders/insert-repo.ts writes
 * both lists in the same order), so the attendee of item `oi` is the one whose position counts the
 * order's items before it. One home for that rule: the order view, the ticket wallet and the gate.
 */
export function attendeeOfItemJoin(item: string, attendee = 'oa'): string {
  return `LEFT JOIN order_attendees ${attendee} ON ${attendee}.order_id = ${item}.order_id
        AND ${attendee}.position = (SELECT COUNT(*) FROM order_items x WHERE x.order_id = ${item}.order_id AND x.id < ${item}.id)`;
}
