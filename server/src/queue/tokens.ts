import { type KeyObject, createHmac, createSecretKey, hash, timingSafeEqual } from 'node:crypto';
import { appError } from '../errors';

export interface Admission {
  jti: string;
  /** How long the used-up marker must live: until the token would have expired. */
  ttlMs: number;
}

/**
 * Admission tokens of the waiting room: `base64url(payload).base64url(HMAC-SHA256)` with the
 * session, the user, the end of the turn and a token id. Bound to one user and one session,
 * short-lived, and used up by the first order it buys (the order script marks its id).
 */
export class AdmissionTokens {
  // A KeyObject, not the Buffer: createHmac imports a Buffer key again on every call (a third
  // of an HMAC's cost), and every poll of an admitted fan signs a token.
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(createHmac('sha256', secret).update('showtix:admission').digest());
  }

  /** The same user, session and turn always get the same token id: polling does not mint new turns. */
  issue(sessionId: string, userId: string, position: number, expiresAtMs: number): string {
    // One-shot hash: no Hash object per poll (same digest as createHash().update().digest()).
    const jti = hash('sha256', `${sessionId}:${userId}:${position}`, 'base64url').slice(0, 22);
    const payload = Buffer.from(JSON.stringify({ s: sessionId, u: userId, e: expiresAtMs, j: jti })).toString(
      'base64url',
    );
    return `${payload}.${this.mac(payload)}`;
  }

  verify(token: string | undefined, sessionId: string, userId: string, nowMs: number): Admission {
    const refuse = (why: string): never => {
      throw appError('QUEUE_REQUIRED', { reason: why });
    };
    if (!token) return refuse('missing');
    const [payload, mac] = token.split('.');
    if (!payload || !mac) return refuse('malformed');
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return refuse('signature');
    let p: { s?: string; u?: string; e?: number; j?: string };
    try {
      p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return refuse('malformed');
    }
    if (p.s !== sessionId) return refuse('other session');
    if (p.u !== userId) return refuse('other account');
    if (typeof p.e !== 'number' || p.e <= nowMs) return refuse('expired');
    if (typeof p.j !== 'string') return refuse('malformed');
    return { jti: p.j, ttlMs: p.e - nowMs + 60_000 };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
