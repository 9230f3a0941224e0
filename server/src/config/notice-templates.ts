import { NOTICE_KINDS, type NoticeKind } from '@showtix/shared-types';

/** A WeChat template id as the MP admin shows it (43 characters of [A-Za-z0-9_-] in practice). */
const TEMPLATE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The environment variable of each notice kind's template: WECHAT_TEMPLATE_PAID, ... */
export const TEMPLATE_ENV: Record<NoticeKind, string> = Object.fromEntries(
  NOTICE_KINDS.map((k) => [k, `WECHAT_TEMPLATE_${k.toUpperCase()}`]),
) as Record<NoticeKind, string>;

/** The simulator's templates (wechat-sim DEFAULT_TEMPLATES): TPL_PAID, TPL_TICKETED, ... */
const simTemplate = (kind: NoticeKind) => `TPL_${kind.toUpperCase()}`;

/**
 * Subscribe-message template ids, one per notice kind (added to the mini-program in the MP
 * admin). Development and tests default to the simulator's; production must name every one.
 */
export function loadNoticeTemplates(
  source: NodeJS.ProcessEnv,
  o: { dev: boolean; problems: string[] },
): Record<NoticeKind, string> {
  const out = {} as Record<NoticeKind, string>;
  for (const kind of NOTICE_KINDS) {
    const name = TEMPLATE_ENV[kind];
    const value = source[name]?.trim() || (o.dev ? simTemplate(kind) : '');
    if (!value) o.problems.push(`${name}: required (the subscribe-message template id of ${kind} notices)`);
    else if (!TEMPLATE_ID.test(value))
      o.problems.push(`${name}: not a template id (letters, digits, _ and -)`);
    out[kind] = value;
  }
  if (source.WECHAT_TICKET_TEMPLATE_ID)
    o.problems.push(
      'WECHAT_TICKET_TEMPLATE_ID: replaced by one template per kind (WECHAT_TEMPLATE_TICKETED, ...)',
    );
  return out;
}
