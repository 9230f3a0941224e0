import type { Db } from '../db/pool';
import { appError } from '../errors';
import type { TokenService } from '../http/auth';
import { upsertUserByOpenid } from '../users/repo';
import { WechatLoginError, type WechatClient } from '../wechat/client';
import type { Clock } from '../clock';
import type { Client } from '../risk/limits';
import type { RiskService } from '../risk/service';

export interface AuthDeps {
  db: Db;
  wechat: WechatClient;
  tokens: TokenService;
  risk: RiskService;
  clock: Clock;
}

/** wx.login code -> jscode2session -> user by openid -> our signed session token. */
export async function wxLogin(d: AuthDeps, code: string, client: Client) {
  await d.risk.guardLogin(client);
  let openid: string;
  try {
    ({ openid } = await d.wechat.code2session(code));
  } catch (err) {
    if (err instanceof WechatLoginError)
      throw appError('UNAUTHORIZED', undefined, '登录凭证无效或已过期，请重新登录');
    throw err;
  }
  await d.risk.guardLoginIdentity(openid);
  const userId = await upsertUserByOpenid(d.db, openid);
  await d.risk.noteAccount(userId, client, d.clock.now());
  return { token: await d.tokens.issue({ userId, roles: ['fan'] }), user: { id: userId } };
}
