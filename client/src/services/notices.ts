import type { NoticeConsents, NoticeKind, NoticeTemplates, SubscribeAnswer } from '@showtix/shared-types';
import { request } from './http';
import { KEYS, readJson, write } from './storage';

type Templates = NoticeTemplates['templates'];

/**
 * The template ids known without a network call (storage): WeChat shows its consent dialog only
 * while the tap that asks for it is being handled, so they must be at hand by then.
 */
export function knownNoticeTemplates(): Templates | undefined {
  return readJson<Templates>(KEYS.noticeTemplates);
}

/** Fetches the server's template ids (one per notice kind) and keeps them for the next tap. */
export async function loadNoticeTemplates(): Promise<Templates> {
  const r = await request<NoticeTemplates>('/api/v1/notices/templates');
  write(KEYS.noticeTemplates, JSON.stringify(r.templates));
  return r.templates;
}

/** Tells the server what the fan answered in the consent dialog (each accept allows one notice). */
export function postNoticeConsent(
  requestId: string,
  results: Record<string, SubscribeAnswer>,
): Promise<NoticeConsents> {
  return request<NoticeConsents>('/api/v1/me/subscriptions', {
    method: 'POST',
    auth: true,
    body: { requestId, results },
  });
}

export type { NoticeKind };
