import type { NoticeKind, SubscribeAnswer } from '@showtix/shared-types';
// Module by module, never the index (see services/shared.ts).
import { SUBSCRIBE_ANSWERS } from '@showtix/shared-types/dist/notice-kinds';
import { knownNoticeTemplates, loadNoticeTemplates, postNoticeConsent } from '../services/notices';
import { promptSubscribe } from '../services/subscribe-prompt';
import { randomId } from './random';

/** WeChat's dialog takes at most three templates at a time. */
const MAX_PER_DIALOG = 3;

/**
 * Asked before paying: the three notices a buyer most wants. 'paid' is left out: it would come
 * seconds before 'ticketed' in a normal purchase, and the dialog holds only three.
 */
export const PAY_NOTICE_KINDS: NoticeKind[] = ['ticketed', 'refund', 'reminder'];

/** Asked on joining a waiting list (候补): the offer notice, the one a waiting fan must not miss. */
export const WAITLIST_NOTICE_KINDS: NoticeKind[] = ['waiting_list_offer', 'session_changed'];

/**
 * Asks the fan's consent to notices of these kinds (WeChat's one-time subscriptions: each accept
 * allows one message), then tells the server what they answered. Call it first thing in a tap
 * handler (WeChat shows the dialog only then). Never throws and never blocks what follows: a
 * refusal, a dialog WeChat does not show or a failed post only means fewer notices.
 */
export async function askNoticeConsent(kinds: NoticeKind[]): Promise<void> {
  try {
    const known = knownNoticeTemplates();
    // Without ids at hand the dialog would come too late for this tap (the app loads them at
    // launch: preloadNoticeTemplates); the fan is asked next time.
    if (!known) return;
    const tmplIds = [...new Set(kinds.map((k) => known[k]).filter(Boolean))].slice(0, MAX_PER_DIALOG);
    if (!tmplIds.length) return;
    const answers = await promptSubscribe(tmplIds);
    const results: Record<string, SubscribeAnswer> = {};
    for (const [id, a] of Object.entries(answers))
      if ((SUBSCRIBE_ANSWERS as readonly string[]).includes(a)) results[id] = a as SubscribeAnswer;
    // Not awaited: the fan goes on to pay while the answers travel.
    if (Object.keys(results).length) void postNoticeConsent(randomId('sub'), results).catch(() => undefined);
  } catch {
    // the fan pays all the same; without consent the server records the notice as not sent
  }
}

/** At launch: the template ids, so that a tap can show WeChat's dialog at once. */
export function preloadNoticeTemplates(): void {
  void loadNoticeTemplates().catch(() => undefined);
}
