import type { Context, Next } from 'koa';
import { createSigner, createVerifier } from 'fast-jwt';
import { appError } from '../errors';
import { VerifiedTokens } from './verified-tokens';
import { ownTokenCheck, type Claims } from './own-tokens';
import type { LeanRequest } from './lean';
import { clientFrom } from '../risk/client';
import type { Client } from '../risk/limits';

// operator and staff_manager are admin-page roles; their tokens' sub is 'admin:<id>'.
export type Role = 'fan' | 'staff' | 'admin' | 'operator' | 'staff_manager';

export interface Principal {
  userId: string;
  roles: Role[];
}

/**
 * Signed session tokens (HS256 JWT, fast-jwt). Stateless, so checking one costs no database
 * round trip; fast-jwt verifies synchronously (jose's WebCrypto verify cost a fifth of the
 * server's CPU on the purchase path). fast-jwt's own cache is off: it hashes every token
 * (SHA-256) to look it up, which cost more than the HMAC it saves; verified tokens are kept in a
 * plain Map instead (verified-tokens.ts), which serves the waiting room's repeated polls.
 */
export class TokenService {
  private readonly sign: (payload: object) => string;
  private readonly check: (token: string) => Claims;
  /** Tokens of our own signer's exact form, checked without fast-jwt (own-tokens.ts). */
  private readonly checkOwn: (token: string, nowMs: number) => Claims | undefined;
  private readonly verified: VerifiedTokens<Principal>;

  /** cacheMax: how many verified tokens are remembered (0: none). */
  constructor(
    secret: string,
    private readonly ttlS: number,
    cacheMax = 200_000,
  ) {
    this.sign = createSigner({ key: secret, algorithm: 'HS256' });
    this.check = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
    this.verified = new VerifiedTokens(cacheMax);
    this.checkOwn = ownTokenCheck(secret, this.sign({ sub: 'probe', exp: 0 }));
  }

  /** `opts.jti` makes two tokens issued in one second differ; `opts.ttlS` shortens the lifetime. */
  async issue(p: Principal, nowMs = Date.now(), opts: { jti?: string; ttlS?: number } = {}): Promise<string> {
    const iat = Math.floor(nowMs / 1000);
    const jti = opts.jti ? { jti: opts.jti } : {};
    return this.sign({ sub: p.userId, roles: p.roles, iat, exp: iat + (opts.ttlS ?? this.ttlS), ...jti });
  }

  async verify(token: string): Promise<Principal> {
    return this.principalOf(token);
  }

  /**
   * verify, without a promise: the crowd's requests (fanPrincipal) check their token before
   * anything else, and an await per check cost a promise and a turn of the microtask queue.
   * The principal is frozen and shared by every request with the same token (no caller may
   * change it: a change would throw).
   */
  principalOf(token: string): Principal {
    // Same clock as fast-jwt's own exp/nbf checks (it reads Date.now() too).
    const now = Date.now();
    const known = this.verified.get(token, now);
    if (known) return known.principal;
    try {
      const payload = this.checkOwn(token, now) ?? this.check(token);
      if (typeof payload.sub !== 'string' || !Array.isArray(payload.roles)) throw new Error('bad claims');
      // fast-jwt checked exp (required) and nbf (when present) are numbers.
      const expMs = (payload.exp as number) * 1000;
      const nbfMs = typeof payload.nbf === 'number' ? payload.nbf * 1000 : 0;
      const roles = Object.freeze([...(payload.roles as Role[])]) as Role[];
      const principal = Object.freeze({ userId: payload.sub, roles });
      this.verified.set(token, { principal, nbfMs, expMs });
      return principal;
    } catch {
      throw appError('UNAUTHORIZED', undefined, '登录已失效，请重新登录');
    }
  }
}

export interface AuthState {
  principal: Principal;
}

/**
 * Requires a fan's (WeChat user's) bearer token; puts the principal on ctx.state. Admin-page
 * tokens ('admin:<id>' subjects) are not WeChat users and are refused here.
 */
export function requireAuth(tokens: TokenService) {
  return async (ctx: Context, next: Next) => {
    (ctx.state as AuthState).principal = fanPrincipal(tokens, ctx.get('authorization'));
    await next();
  };
}

/** A bearer token's header: its token starts at BEARER_PREFIX's length. */
const BEARER = /^Bearer [\w.-]+$/;
const BEARER_PREFIX = 'Bearer ';

/** The fan an Authorization header names, or UNAUTHORIZED (requireAuth, and the lean lane's routes). */
export function fanPrincipal(tokens: TokenService, header: string): Principal {
  if (!BEARER.test(header)) throw appError('UNAUTHORIZED');
  const p = tokens.principalOf(header.slice(BEARER_PREFIX.length));
  if (!/^\d{1,20}$/.test(p.userId)) throw appError('UNAUTHORIZED', undefined, '请使用微信登录');
  return p;
}

/** The fan a lean-lane request comes from (requireAuth's check) and their client, as clientOf reads it. */
export function leanFan(tokens: TokenService, req: LeanRequest): { userId: string; client: Client } {
  const p = fanPrincipal(tokens, req.header('authorization'));
  return { userId: p.userId, client: clientFrom(req.ip, req.header('x-device-id')) };
}

export function principal(ctx: Context): Principal {
  return (ctx.state as AuthState).principal;
}
