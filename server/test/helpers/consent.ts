import { randomBytes } from 'node:crypto';
import type { NoticeKind } from '@showtix/shared-types';
import type { PayEnv } from './pay-env';

/** The template id of each notice kind when none is configured (the simulator's, in dev and tests). */
export const SIM_TEMPLATES: Record<NoticeKind, string> = {
  paid: 'TPL_PAID',
  ticketed: 'TPL_TICKETED',
  refund: 'TPL_REFUND',
  waiting_list_offer: 'TPL_WAITING_LIST_OFFER',
  session_changed: 'TPL_SESSION_CHANGED',
  reminder: 'TPL_REMINDER',
  sale_open: 'TPL_SALE_OPEN',
};

/**
 * The fan accepts subscribe messages of these kinds, as the mini-program does: WeChat records the
 * consent (the simulator's wx.requestSubscribeMessage) and the answers are posted to the server.
 */
export async function consentTo(
  p: PayEnv,
  fan: { token: string },
  openid: string,
  kinds: NoticeKind[],
): Promise<void> {
  const ids = kinds.map((k) => p.config.wechat.templates[k]);
  const results: Record<string, string> = {};
  for (let i = 0; i < ids.length; i += 3) {
    const answer = p.sim.subscribe(openid, ids.slice(i, i + 3));
    for (const id of ids.slice(i, i + 3)) results[id] = answer[id]!;
  }
  const r = await p.api.call('POST', '/api/v1/me/subscriptions', {
    token: fan.token,
    body: { requestId: randomBytes(8).toString('hex'), results },
  });
  if (r.status !== 200) throw new Error(`consent failed: ${r.status} ${JSON.stringify(r.body)}`);
}
