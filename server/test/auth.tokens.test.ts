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
    // Each answer is its own object: a caller changing it changes nobody else's.
    again.roles.push('admin');
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
