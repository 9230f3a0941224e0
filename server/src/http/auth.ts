import type { Context, Next } from 'koa';
import { SignJWT, jwtVerify } from 'jose';
import { appError } from './errors';

export type Role = 'fan' | 'staff' | 'admin';

export interface Principal {
  userId: string;
  roles: Role[];
}

/** Signed session tokens (HS256 JWT). Stateless, so checking one costs no database round trip. */
export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlS: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(p: Principal, nowMs = Date.now()): Promise<string> {
    const iat = Math.floor(nowMs / 1000);
    return new SignJWT({ roles: p.roles })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(p.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlS)
      .sign(this.key);
  }

  async verify(token: string): Promise<Principal> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || !Array.isArray(payload.roles)) throw new Error('bad claims');
      return { userId: payload.sub, roles: payload.roles as Role[] };
    } catch {
      throw appError('UNAUTHORIZED', undefined, '登录已失效，请重新登录');
    }
  }
}

export interface AuthState {
  principal: Principal;
}

/** Requires a valid bearer token; puts the principal on ctx.state. */
export function requireAuth(tokens: TokenService) {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('authorization');
    const m = /^Bearer ([\w.-]+)$/.exec(header);
    if (!m) throw appError('UNAUTHORIZED');
    (ctx.state as AuthState).principal = await tokens.verify(m[1]!);
    await next();
  };
}

export function principal(ctx: Context): Principal {
  return (ctx.state as AuthState).principal;
}
