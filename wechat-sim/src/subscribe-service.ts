import type { Store, SubscribeMessage } from './store';
import { SimError } from './errors';
import { randomHex } from './wxcrypto';
import { rfc3339 } from './time';

/** WeChat answers errors with HTTP 200 and {errcode, errmsg}. */
export type WxAnswer = Record<string, unknown>;

/** The keyword types of subscribe-message templates the simulator checks (WeChat has more). */
export type KeywordType = 'thing' | 'character_string' | 'time' | 'phrase' | 'number' | 'amount';

/** A template added to the mini-program (公共模板库 → 我的模板): its id and its keywords. */
export interface SimTemplate {
  id: string;
  title: string;
  /** data key (thing1, character_string2, ...) -> its type; every key must be sent. */
  keywords: Record<string, KeywordType>;
}

/** What the fan answers for each template in the wx.requestSubscribeMessage dialog. */
export type SubscribeAnswer = 'accept' | 'reject' | 'ban' | 'filter';
const ANSWERS: SubscribeAnswer[] = ['accept', 'reject', 'ban', 'filter'];

/** wx.requestSubscribeMessage takes at most 3 templates per call. */
export const MAX_TMPL_IDS = 3;

const NOTICE_KEYWORDS: Record<string, KeywordType> = {
  thing1: 'thing',
  character_string2: 'character_string',
  thing3: 'thing',
  time4: 'time',
};

/** The simulator's default templates (the server's development defaults name the same ids). */
export const DEFAULT_TEMPLATES: SimTemplate[] = [
  ['TPL_PAID', '支付成功通知'],
  ['TPL_TICKETED', '出票成功通知'],
  ['TPL_REFUND', '退款通知'],
  ['TPL_WAITING_LIST_OFFER', '候补成功通知'],
  ['TPL_SESSION_CHANGED', '演出变更通知'],
  ['TPL_REMINDER', '演出开始提醒'],
  ['TPL_SALE_OPEN', '开售提醒'],
].map(([id, title]) => ({ id: id!, title: title!, keywords: { ...NOTICE_KEYWORDS } }));

function wxError(errcode: number, errmsg: string): WxAnswer {
  return { errcode, errmsg: `${errmsg}, rid: ${randomHex(8).toLowerCase()}-${randomHex(8).toLowerCase()}` };
}

const TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$|^\d{4}年\d{1,2}月\d{1,2}日( \d{2}:\d{2})?$/;

/** WeChat's per-type rules of a keyword value (the ones a product usually trips over). */
function keywordProblem(type: KeywordType, value: string): string | null {
  const len = [...value].length;
  switch (type) {
    case 'thing':
      return len >= 1 && len <= 20 ? null : 'thing: 1-20 characters';
    case 'character_string':
      return /^[\x21-\x7e]{1,32}$/.test(value) ? null : 'character_string: 1-32 letters, digits, symbols';
    case 'phrase':
      return /^[\u4e00-\u9fa5]{1,5}$/.test(value) ? null : 'phrase: 1-5 Chinese characters';
    case 'time':
      return TIME.test(value) ? null : 'time: e.g. 2026-05-01 19:30';
    case 'number':
      return /^\d{1,32}$/.test(value) ? null : 'number: up to 32 digits';
    case 'amount':
      return /^¥?\d+(\.\d{1,2})?元?$/.test(value) ? null : 'amount: e.g. ¥12.34';
  }
}

/** The first problem of `data` against a template (47003), or null. */
export function dataProblem(t: SimTemplate, data: unknown): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'data is not an object';
  const given = data as Record<string, unknown>;
  for (const key of Object.keys(given)) if (!(key in t.keywords)) return `data.${key} is not a keyword`;
  for (const [key, type] of Object.entries(t.keywords)) {
    const entry = given[key];
    const value = (entry as { value?: unknown } | undefined)?.value;
    if (typeof value !== 'string') return `data.${key}.value is missing`;
    const problem = keywordProblem(type, value);
    if (problem) return `data.${key}.value invalid (${problem})`;
  }
  return null;
}

/**
 * One-time subscribe messages: the fan's answers in wx.requestSubscribeMessage give consent
 * (each 'accept' allows one message of that template to that fan), and
 * /cgi-bin/message/subscribe/send spends one, or answers 43101 when none is left.
 */
export class SubscribeService {
  private msgid = 1000000000;
  readonly templates: Map<string, SimTemplate>;

  constructor(
    private readonly store: Store,
    templates: SimTemplate[],
    private readonly checkToken: (token: unknown) => WxAnswer | null,
  ) {
    this.templates = new Map(templates.map((t) => [t.id, t]));
  }

  /** Sends left for that fan and template. */
  remaining(openid: string, templateId: string): number {
    return this.store.consents.get(openid)?.get(templateId) ?? 0;
  }

  private add(openid: string, templateId: string, delta: number): void {
    const mine = this.store.consents.get(openid) ?? new Map<string, number>();
    mine.set(templateId, Math.max(0, (mine.get(templateId) ?? 0) + delta));
    this.store.consents.set(openid, mine);
  }

  /**
   * The fan answers wx.requestSubscribeMessage({tmplIds}). Without `answers` every template gets
   * the `subscribeAnswer` fault's answer ('accept' by default). Answers like WeChat's success:
   * `{errMsg: 'requestSubscribeMessage:ok', [tmplId]: answer}`.
   */
  request(openid: unknown, tmplIds: unknown, answers?: unknown): Record<string, string> {
    if (typeof openid !== 'string' || openid === '')
      throw new SimError(400, 'BAD_OPENID', 'openid must be a non-empty string');
    if (!Array.isArray(tmplIds) || tmplIds.length === 0 || tmplIds.some((t) => typeof t !== 'string'))
      throw new SimError(400, '10001', 'requestSubscribeMessage:fail tmplIds must be a non-empty array');
    if (tmplIds.length > MAX_TMPL_IDS)
      throw new SimError(400, '20003', `requestSubscribeMessage:fail at most ${MAX_TMPL_IDS} tmplIds`);
    const unknown = (tmplIds as string[]).find((t) => !this.templates.has(t));
    if (unknown !== undefined)
      throw new SimError(
        400,
        '20001',
        `requestSubscribeMessage:fail No template data return, verify the template id exist (${unknown})`,
      );
    const given = (answers ?? {}) as Record<string, unknown>;
    const result: Record<string, string> = { errMsg: 'requestSubscribeMessage:ok' };
    for (const id of tmplIds as string[]) {
      const answer = given[id] ?? this.store.faults.subscribeAnswer;
      if (!ANSWERS.includes(answer as SubscribeAnswer))
        throw new SimError(400, 'BAD_ANSWER', `answer for ${id} must be one of ${ANSWERS.join(', ')}`);
      result[id] = answer as string;
    }
    for (const id of tmplIds as string[]) if (result[id] === 'accept') this.add(openid, id, 1);
    return result;
  }

  /** POST /cgi-bin/message/subscribe/send */
  send(token: unknown, body: Record<string, unknown>): WxAnswer {
    const tokenError = this.checkToken(token);
    if (tokenError) return tokenError;
    if (typeof body.touser !== 'string' || !/^[\w-]{1,64}$/.test(body.touser))
      return wxError(40003, 'invalid openid');
    const template = typeof body.template_id === 'string' ? this.templates.get(body.template_id) : undefined;
    if (!template) return wxError(40037, 'invalid template_id');
    const problem = dataProblem(template, body.data);
    if (problem) return wxError(47003, `argument invalid! ${problem}`);
    if (this.store.faults.subscribeRefused || this.remaining(body.touser, template.id) < 1)
      return wxError(43101, 'user refuse to accept the msg');
    this.add(body.touser, template.id, -1);
    this.msgid += 1;
    const message: SubscribeMessage = {
      receivedAt: rfc3339(Date.now()),
      touser: body.touser,
      template_id: template.id,
      page: typeof body.page === 'string' ? body.page : undefined,
      miniprogram_state: typeof body.miniprogram_state === 'string' ? body.miniprogram_state : undefined,
      lang: typeof body.lang === 'string' ? body.lang : undefined,
      data: body.data as Record<string, unknown>,
      msgid: this.msgid,
    };
    this.store.messages.push(message);
    return { errcode: 0, errmsg: 'ok', msgid: this.msgid };
  }
}
