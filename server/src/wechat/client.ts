import type { WechatConfig } from '../config/wechat';

export class WechatLoginError extends Error {}

/**
 * The non-payment WeChat APIs: jscode2session for login, the access token, and subscribe
 * messages ("购票成功"). Plain HTTPS GET/POST to the configured base URL.
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
    const res = await fetch(`${this.c.apiBase}/sns/jscode2session?${q}`, {
      signal: AbortSignal.timeout(5000),
    });
    // WeChat answers JSON with Content-Type text/plain.
    const body = JSON.parse(await res.text()) as {
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
    const res = await fetch(`${this.c.apiBase}/cgi-bin/token?${q}`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as {
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
    const res = await fetch(
      `${this.c.apiBase}/cgi-bin/message/subscribe/send?access_token=${encodeURIComponent(token)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          touser: m.openid,
          template_id: m.templateId,
          page: m.page,
          data: m.data,
          lang: 'zh_CN',
        }),
        signal: AbortSignal.timeout(5000),
      },
    );
    const body = (await res.json()) as { errcode?: number; errmsg?: string };
    const errcode = Number(body.errcode ?? 0);
    // 40001 invalid / 42001 expired token (rotated by another caller of /cgi-bin/token).
    if (errcode === 40001 || errcode === 42001) this.token = undefined;
    return { errcode, errmsg: String(body.errmsg ?? '') };
  }
}
