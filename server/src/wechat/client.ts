import { request } from 'undici';
import type { WechatConfig } from '../config/wechat';

export class WechatLoginError extends Error {}

/** How long a call waits for WeChat's answer's headers, and then for each chunk of its body. */
const WECHAT_API_TIMEOUT_MS = 5000;

/** A JSON answer of WeChat's APIs (sent as text/plain by jscode2session). */
async function call(url: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await request(url, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    headersTimeout: WECHAT_API_TIMEOUT_MS,
    bodyTimeout: WECHAT_API_TIMEOUT_MS,
  });
  return JSON.parse(await res.body.text()) as Record<string, unknown>;
}

/**
 * The non-payment WeChat APIs: jscode2session for login, the access token, and subscribe
 * messages ("购票成功"). Plain HTTPS GET/POST to the configured base URL, with undici's
 * `request` (as wechat/pay-http.ts: Node's fetch costs more CPU a call, and an on-sale's opening
 * is a storm of logins, its payments two subscribe messages each).
 */
export class WechatClient {
  private token: { value: string; expiresAtMs: number } | undefined;

  constructor(
    private readonly c: WechatConfig,
    private readonly now: () => number,
  ) {}

  /** A wx.login code becomes an openid; codes are single-use and expire at WeChat. */
  async code2session(code: string): Promise<{ openid: string; unionid?: string }> {
    const q = new URLSearchParams({
      appid: this.c.appid,
      secret: this.c.appSecret,
      js_code: code,
      grant_type: 'authorization_code',
    });
    const body = (await call(`${this.c.apiBase}/sns/jscode2session?${q}`)) as {
      openid?: string;
      unionid?: string;
      errcode?: number;
      errmsg?: string;
    };
    if (!body.openid) throw new WechatLoginError(`jscode2session ${body.errcode}: ${body.errmsg}`);
    return { openid: body.openid, ...(body.unionid ? { unionid: body.unionid } : {}) };
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAtMs > this.now() + 60_000) return this.token.value;
    const q = new URLSearchParams({
      grant_type: 'client_credential',
      appid: this.c.appid,
      secret: this.c.appSecret,
    });
    const body = (await call(`${this.c.apiBase}/cgi-bin/token?${q}`)) as {
      access_token?: string;
      expires_in?: number;
      errcode?: number;
      errmsg?: string;
    };
    if (!body.access_token) throw new Error(`access token ${body.errcode}: ${body.errmsg}`);
    this.token = { value: body.access_token, expiresAtMs: this.now() + (body.expires_in ?? 7200) * 1000 };
    return this.token.value;
  }

  /**
   * POST /cgi-bin/message/subscribe/send. Answers WeChat's {errcode, errmsg} (0: sent), whatever
   * it is: the caller records refusals. Throws only when there is no answer to record (network,
   * timeout, not JSON); a refused access token is forgotten so the retry fetches a fresh one.
   */
  async sendSubscribeMessage(m: {
    openid: string;
    templateId: string;
    page: string;
    data: Record<string, { value: string }>;
  }): Promise<{ errcode: number; errmsg: string }> {
    const token = await this.accessToken();
    const body = (await call(
      `${this.c.apiBase}/cgi-bin/message/subscribe/send?access_token=${encodeURIComponent(token)}`,
      { touser: m.openid, template_id: m.templateId, page: m.page, data: m.data, lang: 'zh_CN' },
    )) as { errcode?: number; errmsg?: string };
    const errcode = Number(body.errcode ?? 0);
    // 40001 invalid / 42001 expired token (rotated by another caller of /cgi-bin/token).
    if (errcode === 40001 || errcode === 42001) this.token = undefined;
    return { errcode, errmsg: String(body.errmsg ?? '') };
  }
}
