import { TokenService } from '../src/http/auth';
import { AppError } from '../src/errors';

const SECRET = 'unit-test-secret-0123456789abcdef0123456789';

describe('TokenService: remembered verifications', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers a repeated token from memory until its exp, then refuses it', async () => {
    const t0 = Date.UTC(2026, 11, 2, 10, 0, 0);
    const now = jest.spyOn(Date, 'now').mockReturnValue(t0);
    const tokens = new TokenService(SECRET, 60);
    const token = await tokens.issue({ userId: '42', roles: ['fan'] }, t0);
    expect(await tokens.verify(token)).toEqual({ userId: '42', roles: ['fan'] });
    const again = await tokens.verify(token);
    expect(again).toEqual({ userId: '42', roles: ['fan'] });
    // Every request with the token shares one principal, frozen: a caller cannot change it for the others.
    expect(() => again.roles.push('admin')).toThrow(TypeError);
    expect(() => Object.assign(again, { userId: '1' })).toThrow(TypeError);
    expect(await tokens.verify(token)).toEqual({ userId: '42', roles: ['fan'] });
    now.mockReturnValue(t0 + 60_000); // exp itself still passes, as fast-jwt has it
    expect((await tokens.verify(token)).userId).toBe('42');
    now.mockReturnValue(t0 + 60_001);
    await expect(tokens.verify(token)).rejects.toBeInstanceOf(AppError);
    now.mockReturnValue(t0); // and it stays refused: verified again, not served from memory
    expect((await tokens.verify(token)).userId).toBe('42');
  });

  it('never remembers a token whose signature is wrong', async () => {
    const tokens = new TokenService(SECRET, 60);
    const other = new TokenService('another-secret-0123456789abcdef0123456789', 60);
    const forged = await other.issue({ userId: '42', roles: ['fan'] });
    for (let i = 0; i < 2; i++) await expect(tokens.verify(forged)).rejects.toBeInstanceOf(AppError);
  });

  it('keeps at most cacheMax tokens, dropping the oldest', async () => {
    const tokens = new TokenService(SECRET, 60, 2);
    const issued = await Promise.all(
      ['1', '2', '3'].map((u) => tokens.issue({ userId: u, roles: ['fan'] }, Date.now())),
    );
    for (const t of issued) await tokens.verify(t);
    const size = (tokens as unknown as { verified: { size: number } }).verified.size;
    expect(size).toBe(2);
  });
});

describe('TokenService: own-token check agrees with fast-jwt', () => {
  const { createHmac } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  const { createSigner, createVerifier } = jest.requireActual<typeof import('fast-jwt')>('fast-jwt');
  const reference = createVerifier({ key: SECRET, algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  /** A token with any header and payload text, signed (HS256) with any secret. */
  const craft = (header: string, payload: string, secret = SECRET) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };
  const H = '{"alg":"HS256","typ":"JWT"}';

  it('accepts and refuses exactly the same tokens', async () => {
    const now = Date.now();
    const s = Math.floor(now / 1000);
    const sign = createSigner({ key: SECRET, algorithm: 'HS256' });
    const good = sign({ sub: '42', roles: ['fan'], iat: s, exp: s + 60 });
    const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === 'A' ? 'B' : 'A') + t.slice(i + 1);
    const cases = [
      good,
      sign({ sub: '42', roles: ['fan'], iat: s - 120, exp: s - 60 }), // expired
      sign({ sub: '42', roles: ['fan'], exp: s + 60, nbf: s + 30 }), // not yet valid
      sign({ sub: '42', roles: ['fan'], exp: s + 60, nbf: s - 30 }),
      sign({ sub: '42', roles: ['fan'], exp: s + 60, jti: 'x' }),
      craft(H, JSON.stringify({ roles: ['fan'], exp: s + 60 })), // no sub
      craft(H, JSON.stringify({ sub: '42', roles: ['fan'] })), // no exp
      craft(H, JSON.stringify({ sub: '42', roles: ['fan'], exp: String(s + 60) })),
      craft(H, JSON.stringify({ sub: '42', roles: ['fan'], exp: s + 60, nbf: null })),
      craft(H, JSON.stringify([1, 2])),
      craft(H, 'not json'),
      craft(
        H,
        JSON.stringify({ sub: '42', roles: ['fan'], exp: s + 60 }),
        'another-secret-0123456789abcdef012345',
      ),
      craft('{"alg":"HS512","typ":"JWT"}', JSON.stringify({ sub: '42', roles: ['fan'], exp: s + 60 })),
      craft('{"alg":"none"}', JSON.stringify({ sub: '42', roles: ['fan'], exp: s + 60 })),
      craft('{"typ":"JWT","alg":"HS256"}', JSON.stringify({ sub: '42', roles: ['fan'], exp: s + 60 })),
      good.slice(0, good.lastIndexOf('.') + 1), // no signature
      `${good}A`,
      `${good}.x`,
      flip(good, good.length - 1), // last signature character
      flip(good, good.indexOf('.') + 3), // payload changed
      good.slice(0, -1) + String.fromCharCode(good.charCodeAt(good.length - 1) + 1), // non-canonical tail
    ];
    // The good token is taken by the own check itself, not handed on to fast-jwt.
    const own = (
      new TokenService(SECRET, 60, 0) as unknown as { checkOwn: (t: string, n: number) => unknown }
    ).checkOwn;
    expect(own(good, Date.now())).toMatchObject({ sub: '42' });
    for (const t of cases) {
      const tokens = new TokenService(SECRET, 60, 0); // nothing remembered: every call checks
      let expected: unknown;
      try {
        const p = reference(t) as { sub?: unknown; roles?: unknown };
        expected =
          typeof p.sub === 'string' && Array.isArray(p.roles) ? { userId: p.sub, roles: p.roles } : 'refused';
      } catch {
        expected = 'refused';
      }
      const got = await tokens.verify(t).catch(() => 'refused');
      expect([t, got]).toEqual([t, expected]);
    }
  });
});
