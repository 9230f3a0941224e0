import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { AdminLoginResult } from '@showtix/shared-types';
import { inTransaction, type Db } from '../../db/pool';
import type { TokenService } from '../../http/auth';
import { appError } from '../../errors';
import { recordAudit } from '../../audit/repo';
import type { AdminConfig } from '../../config/admin';
import type { AdminPrincipal } from '../../http/admin/http';
import type { LoginLimiter } from './limiter';
import { hashPassword, verifyPassword } from './password';
import * as repo from './repo';

/** Sessions are written to at most once a minute by their own requests (the page polls). */
const TOUCH_EVERY_MS = 60_000;
const ADMIN_SUB = /^admin:(\d{1,20})$/;

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Admin login and sessions. The bearer token is a platform token (TokenService) whose subject is
 * 'admin:<id>', so fan and staff tokens are recognised and refused with 403; what makes it a live
 * session is its row in admin_sessions, which expires after idle time and at a hard limit, and
 * ends at logout or when the account changes. Roles are read from the account on every request.
 */
export class AdminAuthService {
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly cfg: AdminConfig,
    private readonly log: Logger,
  ) {}

  /** Creates the first account from ADMIN_USERNAME / ADMIN_PASSWORD when there is none. */
  async bootstrap(now: Date): Promise<void> {
    if ((await repo.countAdmins(this.db)) > 0) return;
    const password = this.cfg.bootstrapPassword;
    if (!password) {
      this.log.warn('no admin account exists: set ADMIN_USERNAME and ADMIN_PASSWORD to create the first one');
      return;
    }
    const passwordHash = await hashPassword(password);
    await inTransaction(this.db, async (c) => {
      const username = this.cfg.bootstrapUsername;
      const id = await repo.insertAdmin(c, {
        username,
        displayName: '超级管理员',
        passwordHash,
        roles: ['admin'],
      });
      if (!id) return; // another instance created it first
      const after = { id, username, roles: ['admin'] };
      await recordAudit(
        c,
        {
          actor: { adminId: null, username: 'system', ip: '' },
          action: 'admin.bootstrap',
          entityType: 'admin',
          entityId: id,
          after,
        },
        now,
      );
    });
    if (this.cfg.bootstrapIsDefault) {
      this.log.warn(
        { username: this.cfg.bootstrapUsername },
        `DEVELOPMENT admin account created with the default password "${password}"; set ADMIN_PASSWORD`,
      );
    } else {
      this.log.info({ username: this.cfg.bootstrapUsername }, 'first admin account created');
    }
  }

  async login(username: string, password: string, ip: string, now: Date): Promise<AdminLoginResult> {
    await this.limiter.consume(username, ip);
    const row = await repo.findAdminByUsername(this.db, username);
    const ok = (await verifyPassword(row?.passwordHash, password)) && row !== undefined && row.disabled === 0;
    if (!ok || !row) {
      this.log.warn({ username, ip }, 'admin login failed');
      throw appError('UNAUTHORIZED', undefined, '用户名或密码错误');
    }
    const roles = repo.parseRoles(row.roles);
    const expiresAt = new Date(now.getTime() + this.cfg.sessionMaxMs);
    const token = await this.tokens.issue({ userId: `admin:${row.id}`, roles }, now.getTime(), {
      jti: randomBytes(12).toString('base64url'),
      ttlS: Math.ceil(this.cfg.sessionMaxMs / 1000),
    });
    await inTransaction(this.db, async (c) => {
      await repo.insertSession(c, { tokenHash: tokenHash(token), adminId: row.id, now, expiresAt, ip });
      const who = { adminId: row.id, username: row.username, ip };
      await recordAudit(c, { actor: who, action: 'auth.login', entityType: 'admin', entityId: row.id }, now);
    });
    await this.limiter.succeeded(username, ip);
    return {
      token,
      expiresAt: expiresAt.toISOString(),
      admin: repo.accountView({ ...row, lastLoginAt: now }),
    };
  }

  /** The admin behind a bearer token, or 401 (no live session) / 403 (not an admin token). */
  async authenticate(token: string, ip: string, now: Date): Promise<AdminPrincipal> {
    const principal = await this.tokens.verify(token);
    const m = ADMIN_SUB.exec(principal.userId);
    if (!m) throw appError('FORBIDDEN', undefined, '请使用管理后台账号登录');
    const hash = tokenHash(token);
    const s = await repo.findSession(this.db, hash);
    const expired = (msg: string) => appError('UNAUTHORIZED', undefined, msg);
    if (!s || s.adminId !== m[1]) throw expired('登录已失效，请重新登录');
    if (s.revokedAt) throw expired('已退出登录，请重新登录');
    if (s.disabled) throw expired('账号已停用');
    const t = now.getTime();
    if (t >= s.expiresAt.getTime() || t - s.lastSeenAt.getTime() >= this.cfg.sessionIdleMs) {
      throw expired('登录已过期，请重新登录');
    }
    if (t - s.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await repo.touchSession(this.db, hash, now);
    return {
      adminId: s.adminId,
      username: s.username,
      roles: repo.parseRoles(s.roles),
      ip,
      tokenHash: hash,
    };
  }

  async logout(who: AdminPrincipal, now: Date): Promise<void> {
    await inTransaction(this.db, async (c) => {
      await repo.revokeSession(c, who.tokenHash, now);
      await recordAudit(
        c,
        { actor: who, action: 'auth.logout', entityType: 'admin', entityId: who.adminId },
        now,
      );
    });
  }

  async me(adminId: string) {
    const row = await repo.findAdminById(this.db, adminId);
    if (!row) throw appError('UNAUTHORIZED');
    return repo.accountView(row);
  }
}
