import type { JoinWaitlistSchema } from '@showtix/shared-types';
import type { z } from 'zod';
import type { IdentityVault, SealedAttendee } from '../attendees/crypto';
import type { SessionCatalog } from '../catalog/types';
import type { Conn } from '../db/pool';
import { appError } from '../errors';
import { requireAttendees } from '../orders/create';
import { heldIdHashes, insertAttendees, waitingIdHashes } from './attendee-repo';

type JoinInput = z.output<typeof JoinWaitlistSchema>;

/**
 * The attendees a real-name entry joins with, sealed as an order's are (undefined on other
 * sessions): one per unit, each a different ID, as the purchase asks.
 */
export function sealAttendees(
  vault: IdentityVault,
  cat: SessionCatalog,
  input: JoinInput,
): SealedAttendee[] | undefined {
  if (!cat.realName) return undefined;
  requireAttendees(cat, input.attendees, input.quantity);
  return input.attendees!.map((a) => vault.seal(a));
}

/**
 * Records a new entry's attendees under one ID, one ticket, the line included: an ID that holds a
 * ticket or a pending order of the session, or is named by another live entry of it, is refused
 * (ID_TAKEN, its masked number in the details). In the join's transaction; the unique key on the
 * live attendees is the backstop for two joins at once. A ticket bought after the join is caught
 * when the offer is made (the gate's own ID check; the entry then ends, offers.ts).
 */
export async function claimAttendees(
  conn: Conn,
  entryId: string,
  sessionId: string,
  list: SealedAttendee[],
): Promise<void> {
  const hashes = list.map((a) => a.idHash);
  const held = await heldIdHashes(conn, sessionId, hashes);
  const holder = list.find((a) => held.includes(a.idHash));
  if (holder) throw appError('ID_TAKEN', { idMasked: holder.idMasked });
  const waiting = await waitingIdHashes(conn, sessionId, hashes);
  const waiter = list.find((a) => waiting.includes(a.idHash));
  if (waiter || !(await insertAttendees(conn, entryId, sessionId, list)))
    throw appError('ID_TAKEN', waiter ? { idMasked: waiter.idMasked } : undefined, IN_LINE);
}

const IN_LINE = '该证件已在本场次的候补队列中（一证一票）';

/** Which account joined a real-name waiting room with each of these ID hashes (null: none). */
export type QueuedIds = (sessionId: string, idHashes: string[]) => Promise<(string | null)[]>;

/**
 * A real-name waiting room admits one ID document: the entry its turn makes must name it, as the
 * order its turn buys must (orders/service.ts), or one person's place would line up for others.
 */
export async function requireQueuedAttendee(
  queuedIds: QueuedIds,
  sessionId: string,
  userId: string,
  list: SealedAttendee[],
): Promise<void> {
  const owners = await queuedIds(
    sessionId,
    list.map((a) => a.idHash),
  );
  if (!owners.includes(userId)) throw appError('QUEUE_ID_NOT_ATTENDEE');
}
