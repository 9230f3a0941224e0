import type { LoadedKeys } from './keys';
import type { Store } from './store';
import { newAccessToken, newLoginCode, newOpenid, newSessionKey } from './ids';
import { randomHex } from './wxcrypto';

/** WeChat answers errors with HTTP 200 and {errcode, errmsg}. */
export type WxAnswer = Record<string, unknown>;

/** Access tokens live two hours. */
export const ACCESS_TOKEN_TTL_S = 7200;

function wxError(errcode: number, errmsg: string): WxAnswer {
  return { errcode, errmsg: `${errmsg}, rid: ${randomHex(8).toLowerCase()}-${randomHex(8).toLowerCase()}` };
}

export class LoginService {
  constructor(
    private readonly store: Store,
    private readonly keys: LoadedKeys,
    private readonly codeTtlMs: number,
  ) {}

  /** What wx.login would return to that user (a new user when openid is omitted). */
  issueCode(openid?: string, unionid?: string): { code: string; openid: string } {
    const user = openid ?? newOpenid();
    if (unionid) this.store.unionids.set(user, unionid);
    const code = newLoginCode();
    this.store.codes.set(code, {
      code,
      openid: user,
      unionid: this.store.unionids.get(user),
      createdAt: Date.now(),
      used: false,
    });
    return { code, openid: user };
  }

  private checkApp(appid: unknown, secret: unknown): WxAnswer | null {
    if (appid !== this.keys.appid) return wxError(40013, 'invalid appid');
    if (secret !== this.keys.appSecret) return wxError(40125, 'invalid appsecret');
    return null;
  }

  /** GET /sns/jscode2session: codes are single-use and expire after codeTtlMs. */
  jscode2session(q: Record<string, unknown>): WxAnswer {
    const appError = this.checkApp(q.appid, q.secret);
    if (appError) return appError;
    if (q.grant_type !== 'authorization_code') return wxError(40002, 'invalid grant_type');
    if (typeof q.js_code !== 'string' || q.js_code === '') return wxError(41008, 'missing code');
    const entry = this.store.codes.get(q.js_code);
    if (!entry || Date.now() - entry.createdAt > this.codeTtlMs) return wxError(40029, 'invalid code');
    if (entry.used) return wxError(40163, 'code been used');
    entry.used = true;
    const answer: WxAnswer = { session_key: newSessionKey(), openid: entry.openid };
    if (entry.unionid) answer.unionid = entry.unionid;
    return answer;
  }

  private grant(): WxAnswer {
    const token = newAccessToken();
    this.store.accessTokens.set(token, Date.now() + ACCESS_TOKEN_TTL_S * 1000);
    return { access_token: token, expires_in: ACCESS_TOKEN_TTL_S };
  }

  /** GET /cgi-bin/token and POST /cgi-bin/stable_token */
  token(q: Record<string, unknown>): WxAnswer {
    if (q.grant_type !== 'client_credential') return wxError(40002, 'invalid grant_type');
    return this.checkApp(q.appid, q.secret) ?? this.grant();
  }

  /** Null when the access token is good, else WeChat's answer. */
  checkToken(token: unknown): WxAnswer | null {
    if (typeof token !== 'string' || token === '') return wxError(41001, 'access_token missing');
    const expiresAt = this.store.accessTokens.get(token);
    if (expiresAt === undefined)
      return wxError(40001, 'invalid credential, access_token is invalid or not latest');
    if (Date.now() > expiresAt) return wxError(42001, 'access_token expired');
    return null;
  }
}
