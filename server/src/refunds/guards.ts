import { parseRefundRules } from '../catalog/repo';
import type { Conn } from '../db/pool';
import { appError } from '../errors';
import type { OrderRecord } from '../orders/types';
import { transferStateOfItems } from './items-repo';
import { refundRulesOfSession } from './repo';
import { refundTerms } from './rules';

// What a refund request must pass besides its items: the show's fee tiers, and the transfer rule.

/**
 * The buyer's fee under the show's tiers on the refunded items' price, read on the refund's
 * own connection: taking a second pool connection while a transaction holds one can starve
 * the pool under load.
 */
export async function buyerFee(
  conn: Conn,
  order: OrderRecord,
  amountFen: number,
  now: Date,
): Promise<number> {
  const r = await refundRulesOfSession(conn, order.sessionId);
  const terms = refundTerms(parseRefundRules(r.refundRules), r.startsAt, now, amountFen, r.fullRefundUntil);
  if (!terms.allowed) throw appError('REFUND_NOT_ALLOWED');
  return terms.feeFen;
}

/**
 * A transferred ticket is not refunded for money (as on Damai): the receiver got it at face value
 * and does not own the payment, and the giver no longer holds the ticket. A ticket with an open
 * transfer offer is refused until the giver cancels it. Only a session cancel (actor 'system')
 * refunds such items: the original payer gets the money, the receiver's ticket is voided. Called
 * with the items' tickets locked (refuseIfCheckedIn), so no offer or acceptance slips in between.
 */
export async function refuseIfTransferred(conn: Conn, itemIds: string[]): Promise<void> {
  const st = await transferStateOfItems(conn, itemIds);
  if (st.transferring) throw appError('TICKET_TRANSFERRING');
  if (st.transferred) throw appError('TICKET_TRANSFERRED');
}
