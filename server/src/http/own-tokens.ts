import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

export type Claims = Record<string, unknown>;

/** The only header the fast check knows: the one fast-jwt's HS256 signer writes. */
const OWN_HEADER = '{"alg":"HS256","typ":"JWT"}';

/**
 * A narrow HS256 check of the session tokens this service signs itself (probe: one of them, to
 * learn the header segment the signer writes). fast-jwt's general path (decode both segments,
 * validate the header, build a Hmac from scratch, match validators) was ~7% of a join's CPU,
 * and joins and purchases each bring a token the server has not seen yet.
 *
 * It only ever accepts what fast-jwt accepts with this service's options (HS256, exp and sub
 * required, exp and nbf checked against Date.now() with no tolerance): the exact header, an
 * HMAC whose canonical base64url is exactly the third segment, a JSON object payload with a
 * numeric exp not past, a sub, and no nbf or a numeric one reached. Anything else, including
 * every token it cannot accept, returns undefined and the caller asks fast-jwt, whose answer
 * (usually a refusal) stands.
 */
export function ownTokenCheck(
  secret: string,
  probe: string,
): (token: string, nowMs: number) => Claims | undefined {
  const header = probe.slice(0, probe.indexOf('.'));
  if (Buffer.from(header, 'base64url').toString('utf8') !== OWN_HEADER) return () => undefined;
  // fast-jwt's own key: the secret's UTF-8 bytes as a secret KeyObject.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const prefix = `${header}.`;
  return (token, nowMs) => {
    if (!token.startsWith(prefix)) return undefined;
    const dot = token.indexOf('.', prefix.length);
    if (dot < 0 || token.indexOf('.', dot + 1) >= 0) return undefined;
    const expected = Buffer.from(createHmac('sha256', key).update(token.slice(0, dot)).digest('base64url'));
    const given = Buffer.from(token.slice(dot + 1));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(token.slice(prefix.length, dot), 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
    const c = payload as Claims;
    if (typeof c.exp !== 'number' || !('sub' in c) || nowMs > c.exp * 1000) return undefined;
    if ('nbf' in c && (typeof c.nbf !== 'number' || nowMs < c.nbf * 1000)) return undefined;
    return c;
  };
}
