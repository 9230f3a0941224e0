import {
  NOTICE_KINDS,
  type NoticeConsents,
  type NoticeKind,
  type NoticeTemplates,
  type SubscriptionAnswers,
} from '@showtix/shared-types';
import { inTransaction, type Db } from '../db/pool';
import { appError } from '../errors';
import * as repo from './repo';

/**
 * The fans' consent to notices: the template ids the mini-program asks for, and the answers of
 * wx.requestSubscribeMessage it posts back (each 'accept' allows one message of that template).
 */
export class NoticeService {
  constructor(
    private readonly db: Db,
    private readonly templates: Record<NoticeKind, string>,
  ) {}

  templateIds(): NoticeTemplates {
    return { templates: { ...this.templates } };
  }

  async consents(userId: string): Promise<NoticeConsents> {
    const left = await repo.consentsOf(this.db, userId);
    return {
      items: NOTICE_KINDS.map((kind) => ({
        kind,
        templateId: this.templates[kind],
        remaining: left.get(this.templates[kind]) ?? 0,
      })),
    };
  }

  /**
   * Adds one send per accepted template; a request id seen before changes nothing (a retried
   * post). A template id that is not ours is refused before anything is written.
   */
  async record(userId: string, a: SubscriptionAnswers, now: Date): Promise<NoticeConsents> {
    const ours = new Set(Object.values(this.templates));
    const unknown = Object.keys(a.results).filter((id) => !ours.has(id));
    if (unknown.length)
      throw appError(
        'VALIDATION_FAILED',
        { templateIds: unknown },
        `不是本小程序的通知模板：${unknown.join(', ')}`,
      );
    const accepted = Object.entries(a.results)
      .filter(([, answer]) => answer === 'accept')
      .map(([id]) => id);
    await inTransaction(this.db, async (conn) => {
      if (!(await repo.claimConsentRequest(conn, userId, a.requestId, now))) return;
      for (const id of accepted) await repo.addConsent(conn, userId, id, now);
    });
    return this.consents(userId);
  }
}
