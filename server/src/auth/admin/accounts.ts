import type { AdminAccount, AdminRole } from '@showtix/shared-types';
import type { Db } from '../../db/pool';
import { appError } from '../../errors';
import type { Actor } from '../../audit/actor';
import { audited } from '../../audit/tx';
import { hashPassword } from './password';
import * as repo from './repo';

/** What the audit log keeps of an account: never the password hash. */
const snapshot = (r: repo.AdminRecord) => {
  const { lastLoginAt: _l, createdAt: _c, ...rest } = repo.accountView(r);
  return rest;
};

/** Admin accounts, managed by holders of the 'admin' role. */
export class AdminAccountService {
  constructor(private readonly db: Db) {}

  async list(): Promise<AdminAccount[]> {
    return (await repo.listAdmins(this.db)).map(repo.accountView);
  }

  async create(
    who: Actor,
    input: { username: string; displayName: string; password: string; roles: AdminRole[] },
    now: Date,
  ): Promise<AdminAccount> {
    const passwordHash = await hashPassword(input.password);
    const id = await audited(
      this.db,
      who,
      now,
      async (c) => {
        const newId = await repo.insertAdmin(c, { ...input, passwordHash });
        if (!newId) throw appError('VALIDATION_FAILED', { field: 'username' }, '用户名已存在');
        return newId;
      },
      (newId) => ({
        action: 'admin.create',
        entityType: 'admin',
        entityId: newId,
        after: { username: input.username, displayName: input.displayName, roles: input.roles },
      }),
    );
    return repo.accountView((await repo.findAdminById(this.db, id))!);
  }

  async update(
    who: Actor,
    id: string,
    input: { displayName?: string; password?: string; roles?: AdminRole[]; disabled?: boolean },
    now: Date,
  ): Promise<AdminAccount> {
    if (id === who.adminId && (input.disabled || (input.roles && !input.roles.includes('admin')))) {
      // Nobody locks themselves out; another admin can do it if it is really meant.
      throw appError('VALIDATION_FAILED', { field: 'roles' }, '不能停用自己或移除自己的管理员角色');
    }
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        const before = await repo.findAdminById(c, id, true);
        if (!before) throw appError('NOT_FOUND', undefined, '账号不存在');
        await repo.updateAdmin(c, id, { ...input, passwordHash });
        // A new password, other roles or a disabled account end the open sessions at once.
        if (passwordHash || input.roles || input.disabled !== undefined)
          await repo.revokeSessionsOf(c, id, now);
        const after = (await repo.findAdminById(c, id))!;
        return {
          before: snapshot(before),
          after: { ...snapshot(after), ...(input.password ? { passwordChanged: true } : {}) },
        };
      },
      (r) => ({ action: 'admin.update', entityType: 'admin', entityId: id, ...r }),
    );
    return repo.accountView((await repo.findAdminById(this.db, id))!);
  }
}
