import type { Logger } from 'pino';
import type { NoticeStatus } from '@showtix/shared-types';
import { GroupCommit, type Pending } from '../db/group-commit';
import type { Db } from '../db/pool';
import type { Messages } from '../outbox/repo';
import { NOTICE_TEXT } from './kinds';
import * as repo from './repo';

export type Notice = Messages['notice.send'];

/** The fan's openid, and the keywords and page query of what the notice is about. */
export interface Recipient {
  openid: string;
  /** character_string2: the order number, or the show's id (sale_open). */
  code: string;
  title: string;
  startsAt: Date;
  /** The query of the page the notice opens. */
  query: string;
  /** The fan's sends left of the notice's template when it was read (a hint: see consumer.ts, claim). */
  consentLeft: number;
}

/** Who the notice goes to: the order's buyer, or (sale_open) the fan who asked for the reminder. */
export async function recipientFor(db: Db, m: Notice, templateId: string): Promise<Recipient | null> {
  if (m.template === 'sale_open') {
    const r = await repo.saleRecipientOf(db, m.userId, m.sessionId, templateId);
    return r && { ...r, code: r.showId, query: `id=${r.showId}` };
  }
  return ofOrder(await repo.recipientOf(db, m.userId, m.orderId, templateId));
}

/** An order's notice's recipient: its code and page are the order number's. */
const ofOrder = <R extends Omit<Recipient, 'code' | 'query'> & { orderNo: string }>(r: R | null) =>
  r && { ...r, code: r.orderNo, query: `orderNo=${r.orderNo}` };

/** A notice's row as its first delivery inserts it, before its state is known. */
export function noticeRow(m: Notice, messageKey: string, templateId: string) {
  return {
    messageKey,
    userId: m.userId,
    orderId: m.template === 'sale_open' ? null : m.orderId,
    template: String(m.template),
    kind: NOTICE_TEXT[m.template]?.kind ?? 'unknown',
    templateId,
  };
}

/**
 * The state a notice starts in when that state is already its last: failed (nothing to address:
 * a template this server does not know, a recipient not found) or no_consent (no send left of
 * the template when the recipient was read); null when there is something to send.
 */
export function finalFirstState(
  m: Notice,
  to: Recipient | null,
): { status: Extract<NoticeStatus, 'failed'>; errmsg: string } | { status: 'no_consent' } | null {
  if (!NOTICE_TEXT[m.template])
    return { status: 'failed', errmsg: `unknown notice template ${String(m.template)}` };
  if (!to) return { status: 'failed', errmsg: 'recipient not found' };
  return to.consentLeft <= 0 ? { status: 'no_consent' } : null;
}

/** One delivery's first step: what it asked, and (once flushed) what the batch found. */
interface FirstStep {
  m: Notice;
  messageKey: string;
  templateId: string;
  now: Date;
  to: Recipient | null;
  /** For a notice whose first state is its last: whether this delivery's INSERT made its row. */
  inserted?: boolean;
}

/**
 * The first step of the notices delivered together (up to the consumer's prefetch), in two
 * statements for the batch instead of two per notice: their recipients in one query, then the
 * rows of those whose first state is already their last (finalFirstState: most of a sale's fans
 * gave no consent) in one INSERT. A notice with something to send goes on alone to the consent's
 * transaction (consumer.ts, claim). On the pay path every paid order brings two notices, and
 * their four statements were the largest share of what was left per order (bench --scenario pay).
 *
 * A redelivery among them (its row is there already) refuses the batch's INSERT as a whole; the
 * batch's rows are then inserted one by one, each learning whether it made its row, as alone.
 */
export class NoticeFirstSteps extends GroupCommit<FirstStep> {
  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    o: { batchMax: number; inflightMax: number },
  ) {
    super(o);
  }

  /** The notice's recipient and, when its first state is its last, whether this delivery made its row. */
  async start(m: Notice, messageKey: string, templateId: string, now: Date) {
    const step: FirstStep = { m, messageKey, templateId, now, to: null };
    await this.submit(step);
    return { to: step.to, inserted: step.inserted };
  }

  protected async flush(batch: Pending<FirstStep>[]): Promise<void> {
    const steps = batch.map((p) => p.item);
    await this.readRecipients(steps);
    const finals = steps.flatMap((s) => {
      const final = finalFirstState(s.m, s.to);
      return final ? [{ s, n: { ...noticeRow(s.m, s.messageKey, s.templateId), ...final } }] : [];
    });
    try {
      await repo.insertNotices(
        this.db,
        finals.map(({ s, n }) => ({ n, now: s.now })),
      );
      for (const { s } of finals) s.inserted = true;
    } catch (err) {
      this.log.debug({ err, size: finals.length }, 'notices batch refused; inserting one by one');
      await Promise.all(
        finals.map(async ({ s, n }) => {
          s.inserted = await repo.insertNotice(this.db, n, s.now);
        }),
      );
    }
    for (const p of batch) p.resolve();
  }

  /** Every step's recipient: an order's notices in one query, a sale_open reminder on its own. */
  private async readRecipients(steps: FirstStep[]): Promise<void> {
    const ofOrders = steps.filter((s) => s.m.template !== 'sale_open');
    const found = await repo.recipientsOf(
      this.db,
      ofOrders.map((s) => ({
        userId: s.m.userId,
        orderId: (s.m as Exclude<Notice, { template: 'sale_open' }>).orderId,
        templateId: s.templateId,
      })),
    );
    ofOrders.forEach((s, i) => (s.to = ofOrder(found[i] ?? null)));
    await Promise.all(
      steps
        .filter((s) => s.m.template === 'sale_open')
        .map(async (s) => {
          s.to = await recipientFor(this.db, s.m, s.templateId);
        }),
    );
  }
}
