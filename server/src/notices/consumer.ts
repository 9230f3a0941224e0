import type { Logger } from 'pino';
import type { NoticeKind, NoticeStatus } from '@showtix/shared-types';
import { inTransaction, type Db } from '../db/pool';
import type { Messages } from '../outbox/repo';
import type { WechatClient } from '../wechat/client';
import { ERRCODE_REFUSED, NOTICE_TEXT, TRANSIENT_ERRCODES, beijingTime } from './kinds';
import * as repo from './repo';

export interface NoticeDeps {
  db: Db;
  wechat: Pick<WechatClient, 'sendSubscribeMessage'>;
  log: Logger;
  /** Template id per notice kind (configuration). */
  templates: Record<NoticeKind, string>;
}

type Notice = Messages['notice.send'];
/** The fan's openid, and the keywords and page query of what the notice is about. */
interface Recipient {
  openid: string;
  /** character_string2: the order number, or the show's id (sale_open). */
  code: string;
  title: string;
  startsAt: Date;
  /** The query of the page the notice opens. */
  query: string;
  /** The fan's sends left of the notice's template when it was read (a hint: see claim). */
  consentLeft: number;
}

/** Who the notice goes to: the order's buyer, or (sale_open) the fan who asked for the reminder. */
async function recipientFor(db: Db, m: Notice, templateId: string): Promise<Recipient | null> {
  if (m.template === 'sale_open') {
    const r = await repo.saleRecipientOf(db, m.userId, m.sessionId, templateId);
    return r && { ...r, code: r.showId, query: `id=${r.showId}` };
  }
  const r = await repo.recipientOf(db, m.userId, m.orderId, templateId);
  return r && { ...r, code: r.orderNo, query: `orderNo=${r.orderNo}` };
}

/** A WeChat answer (or its absence) that the consumer's retry should try again. */
export class TransientNoticeError extends Error {}

/**
 * Sends a fan's notice as a WeChat subscribe message, once per outbox message (its id is the
 * key): only with the fan's consent, one send of it taken in the same transaction that records
 * the notice as 'sending'. Every outcome stays in the notices table (sent, no_consent, refused
 * with WeChat's errcode, failed); transient errors throw so the consumer retries, and the retry
 * sends again without taking another consent. A crash between WeChat's answer and the record
 * can send twice (the retry then most likely reads 43101 and records it).
 */
export async function sendNotice(
  d: NoticeDeps,
  m: Notice,
  messageKey: string,
  now: Date,
): Promise<NoticeStatus> {
  const text = NOTICE_TEXT[m.template];
  const templateId = text ? d.templates[text.kind] : '';
  const to = await recipientFor(d.db, m, templateId);
  // The claim comes first, with no read of the notice before it: almost every delivery is the
  // first, and its INSERT says whether the message has a row already (a redelivery, a retry).
  const c = await claim(d, m, messageKey, templateId, to, now);
  if (c.status !== 'sending') return c.status;
  if (!c.fresh && (!to || !text)) {
    // a retried send whose order or user is gone since: nothing to send any more
    await repo.recordOutcome(
      d.db,
      messageKey,
      { status: 'failed', errcode: null, errmsg: 'recipient not found' },
      now,
    );
    return 'failed';
  }
  let answer: { errcode: number; errmsg: string };
  try {
    answer = await d.wechat.sendSubscribeMessage({
      openid: to!.openid,
      templateId: c.templateId,
      page: `${text!.page}?${to!.query}`,
      data: noticeData(to!, text!.title),
    });
  } catch (err) {
    const errmsg = `no answer from WeChat: ${(err as Error).message}`;
    await repo.recordOutcome(d.db, messageKey, { status: 'sending', errcode: null, errmsg }, now);
    throw new TransientNoticeError(errmsg);
  }
  return settle(d, m.userId, messageKey, c.templateId, answer, now);
}

/** The keywords of every notice template (thing1, character_string2, thing3, time4). */
function noticeData(to: Recipient, title: string): Record<string, { value: string }> {
  return {
    thing1: { value: [...to.title].slice(0, 20).join('') },
    character_string2: { value: to.code },
    thing3: { value: [...title].slice(0, 20).join('') },
    time4: { value: beijingTime(to.startsAt) },
  };
}

/** A claim's outcome: the notice's state, the template its consent is of, and whether this delivery made the row. */
interface Claimed {
  status: NoticeStatus;
  templateId: string;
  fresh: boolean;
}

/**
 * Inserts the notice's row and takes one consent, in one transaction: 'sending' when there is
 * something to send, else the final state recorded (no_consent, failed). When the message has a
 * row already (a redelivery, a retry), that row's state and template, untouched: a retry sends
 * with the consent its first delivery took, and never takes another.
 */
async function claim(
  d: NoticeDeps,
  m: Notice,
  messageKey: string,
  templateId: string,
  to: Recipient | null,
  now: Date,
): Promise<Claimed> {
  const text = NOTICE_TEXT[m.template];
  const base = {
    messageKey,
    userId: m.userId,
    orderId: m.template === 'sale_open' ? null : m.orderId,
    template: String(m.template),
    kind: text?.kind ?? 'unknown',
    templateId,
  };
  const problem = !text
    ? `unknown notice template ${String(m.template)}`
    : !to
      ? 'recipient not found'
      : null;
  if (!problem && to!.consentLeft <= 0) return claimWithoutConsent(d, base, now);
  return inTransaction(d.db, async (conn): Promise<Claimed> => {
    const fresh = await repo.insertNotice(
      conn,
      problem ? { ...base, status: 'failed', errmsg: problem } : { ...base, status: 'sending' },
      now,
    );
    if (!fresh) {
      const existing = await repo.noticeByKey(conn, messageKey);
      return { status: existing?.status ?? 'sending', templateId: existing?.templateId ?? templateId, fresh };
    }
    if (problem) {
      d.log.error({ messageKey, template: m.template }, `notice not sent: ${problem}`);
      return { status: 'failed', templateId, fresh };
    }
    if (await repo.takeConsent(conn, m.userId, templateId, now))
      return { status: 'sending', templateId, fresh };
    await repo.recordOutcome(conn, messageKey, { status: 'no_consent', errcode: null, errmsg: null }, now);
    return { status: 'no_consent', templateId, fresh };
  });
}

/**
 * A fan with no send left of the template when the recipient was read: the notice's row is made
 * 'no_consent' at once, in one statement, not in the consent's transaction (insert 'sending', fail
 * to take a send, record no_consent: five statements). Most fans of a sale gave no consent, so
 * this was most of the notices' work on the pay path (bench --scenario pay). A consent given
 * between the read and the insert stays for the next notice, as if this one had come a moment
 * earlier. A redelivery finds the row and answers its state, as in the transaction.
 */
async function claimWithoutConsent(
  d: NoticeDeps,
  base: Omit<Parameters<typeof repo.insertNotice>[1], 'status'>,
  now: Date,
): Promise<Claimed> {
  const fresh = await repo.insertNotice(d.db, { ...base, status: 'no_consent' }, now);
  if (fresh) return { status: 'no_consent', templateId: base.templateId, fresh };
  const existing = await repo.noticeByKey(d.db, base.messageKey);
  return {
    status: existing?.status ?? 'sending',
    templateId: existing?.templateId ?? base.templateId,
    fresh,
  };
}

/** Records WeChat's answer: sent, refused (43101 spends the consent), failed (the consent goes back). */
async function settle(
  d: NoticeDeps,
  userId: string,
  messageKey: string,
  templateId: string,
  a: { errcode: number; errmsg: string },
  now: Date,
): Promise<NoticeStatus> {
  const outcome = { errcode: a.errcode === 0 ? null : a.errcode, errmsg: a.errcode === 0 ? null : a.errmsg };
  if (a.errcode === 0) {
    await repo.recordOutcome(d.db, messageKey, { status: 'sent', ...outcome }, now);
    return 'sent';
  }
  if (TRANSIENT_ERRCODES.has(a.errcode)) {
    await repo.recordOutcome(d.db, messageKey, { status: 'sending', ...outcome }, now);
    throw new TransientNoticeError(`subscribe message ${a.errcode}: ${a.errmsg}`);
  }
  const status: NoticeStatus = a.errcode === ERRCODE_REFUSED ? 'refused' : 'failed';
  await inTransaction(d.db, async (conn) => {
    await repo.recordOutcome(conn, messageKey, { status, ...outcome }, now);
    if (status === 'refused') await repo.spendAllConsent(conn, userId, templateId, now);
    else await repo.returnConsent(conn, userId, templateId, now);
  });
  if (status === 'failed')
    d.log.error({ messageKey, errcode: a.errcode, errmsg: a.errmsg }, 'notice refused by WeChat');
  return status;
}
