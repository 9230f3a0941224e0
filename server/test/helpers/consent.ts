import { randomBytes } from 'node:crypto';
import type { NoticeKind } from '@showtix/shared-types';
import type { PayEnv } from './pay-env';

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
