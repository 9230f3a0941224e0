import type { Logger } from 'pino';
import type { NoticeKind, NoticeStatus } from '@showtix/shared-types';
import { inTransaction, type Db } from '../db/pool';
import type { WechatClient } from '../wechat/client';
import {
  finalFirstState,
  noticeRow,
  recipientFor,
  type NoticeFirstSteps,
  type Notice,
  type Recipient,
} from './first-step';
import { ERRCODE_REFUSED, NOTICE_TEXT, TRANSIENT_ERRCODES, beijingTime } from './kinds';
import * as repo from './repo';

export interface NoticeDeps {
  db: Db;
  wechat: Pick<WechatClient, 'sendSubscribeMessage'>;
  log: Logger;
  /** Template id per notice kind (configuration). */
  templates: Record<NoticeKind, string>;
  /** The consumer's batches of first steps (absent: each notice reads and inserts alone). */
  firstSteps?: NoticeFirstSteps;
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
  const first = d.firstSteps
    ? await d.firstSteps.start(m, messageKey, templateId, now)
    : { to: await recipientFor(d.db, m, templateId), inserted: undefined };
  const to = first.to;
  // The claim comes first, with no read of the notice before it: almost every delivery is the
  // first, and its INSERT says whether the message has a row already (a redelivery, a retry).
  const c = await claim(d, m, messageKey, templateId, to, now, first.inserted);
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
 * Makes the notice's row and, when there is something to send, takes one consent: 'sending'
 * then, else the final state recorded (failed, no_consent). When the message has a row already (a
 * redelivery, a retry), that row's state and template, untouched: a retry sends with the consent
 * its first delivery took, and never takes another.
 *
 * A notice whose first state is already its last (nothing to address, or a fan with no send left
 * of the template when the recipient was read) is one INSERT, with no transaction (in the
 * consumer, one INSERT for the notices delivered together, first-step.ts): most fans of a
 * sale gave no consent, and their notices' five statements (insert 'sending', fail to take a
 * send, record no_consent, in a transaction) were most of the notices' work on the pay path
 * (bench --scenario pay). The sends left are only a hint: a consent given between the read and
 * the insert stays for the next notice, as if this one had come a moment earlier; a send is only
 * ever taken by takeConsent, in the transaction.
 */
async function claim(
  d: NoticeDeps,
  m: Notice,
  messageKey: string,
  templateId: string,
  to: Recipient | null,
  now: Date,
  /** For a notice whose first state is its last, whether its batch's INSERT made its row (first-step.ts). */
  insertedInBatch?: boolean,
): Promise<Claimed> {
  const base = noticeRow(m, messageKey, templateId);
  const final = finalFirstState(m, to);
  if (final) {
    const inserted = insertedInBatch ?? (await repo.insertNotice(d.db, { ...base, ...final }, now));
    if (!inserted) return claimedBefore(d.db, messageKey, templateId);
    if (final.status === 'failed')
      d.log.error({ messageKey, template: m.template }, `notice not sent: ${final.errmsg}`);
    return { status: final.status, templateId, fresh: true };
  }
  return inTransaction(d.db, async (conn): Promise<Claimed> => {
    if (!(await repo.insertNotice(conn, { ...base, status: 'sending' }, now)))
      return claimedBefore(conn, messageKey, templateId);
    if (await repo.takeConsent(conn, m.userId, templateId, now))
      return { status: 'sending', templateId, fresh: true };
    await repo.recordOutcome(conn, messageKey, { status: 'no_consent', errcode: null, errmsg: null }, now);
    return { status: 'no_consent', templateId, fresh: true };
  });
}

/** The claim an earlier delivery of the message made: its row's state and template. */
async function claimedBefore(
  db: Parameters<typeof repo.noticeByKey>[0],
  messageKey: string,
  templateId: string,
): Promise<Claimed> {
  const existing = await repo.noticeByKey(db, messageKey);
  return {
    status: existing?.status ?? 'sending',
    templateId: existing?.templateId ?? templateId,
    fresh: false,
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
