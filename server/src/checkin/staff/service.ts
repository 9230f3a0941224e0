import { createHash, randomInt } from 'node:crypto';
import type { GateCounts, StaffInvite, StaffMember } from '@showtix/shared-types';
import { inTransaction, type Conn, type Db } from '../../db/pool';
import { appError } from '../../errors';
import { recordAudit } from '../../audit/repo';
import type { Actor } from '../../audit/actor';
import { audited } from '../../audit/tx';
import * as repo from './repo';

/** No 0/O or 1/I: codes are read aloud and typed on phones. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function inviteCode(length = 10): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/**
 * What the audit log and assignment records name an invite by: a hash of the code, never the
 * code itself (whoever reads the audit log could otherwise redeem it and become gate staff).
 * Migration 0015 computes the same reference for entries written before.
 */
export function inviteRef(code: string): string {
  return `inv_${createHash('sha256').update(code).digest('hex').slice(0, 10)}`;
}

/**
 * Gate staff: WeChat users (their fan token then works at check-in for the assigned shows),
 * bound by a staff manager directly or through an invite code they redeem in the mini-program.
 */
export class StaffService {
  constructor(private readonly db: Db) {}

  async list(): Promise<StaffMember[]> {
    const byUser = new Map<string, StaffMember>();
    for (const r of await repo.listStaff(this.db)) {
      const m: StaffMember = byUser.get(String(r.user_id)) ?? {
        userId: String(r.user_id),
        nickname: r.nickname ?? null,
        shows: [],
        since: r.created_at.toISOString(),
      };
      m.shows.push({ id: String(r.show_id), title: r.title });
      if (r.created_at.toISOString() < m.since) m.since = r.created_at.toISOString();
      byUser.set(m.userId, m);
    }
    return [...byUser.values()];
  }

  private async checkShows(c: Db | Conn, showIds: string[]): Promise<void> {
    const found = await repo.existingShows(c, showIds);
    const missing = showIds.filter((s) => !found.has(s));
    if (missing.length)
      throw appError('VALIDATION_FAILED', { showIds: missing }, `演出不存在：${missing.join(', ')}`);
  }

  async assign(who: Actor, userId: string, showIds: string[], now: Date): Promise<StaffMember> {
    const ids = [...new Set(showIds)];
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        if (!(await repo.userExists(c, userId)))
          throw appError('VALIDATION_FAILED', { field: 'userId' }, '该微信用户不存在（需先在小程序登录过）');
        await this.checkShows(c, ids);
        const before = await repo.assignmentsOf(c, userId);
        await repo.assign(c, userId, ids, who.username, now);
        return { before: { showIds: before }, after: { showIds: await repo.assignmentsOf(c, userId) } };
      },
      (r) => ({ action: 'staff.assign', entityType: 'staff', entityId: userId, ...r }),
    );
    return (await this.list()).find((m) => m.userId === userId)!;
  }

  async remove(who: Actor, userId: string, showIds: string[] | undefined, now: Date): Promise<void> {
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        const before = await repo.assignmentsOf(c, userId);
        if (!before.length) throw appError('NOT_FOUND', undefined, '该用户不是工作人员');
        await repo.unassign(c, userId, showIds);
        return { before: { showIds: before }, after: { showIds: await repo.assignmentsOf(c, userId) } };
      },
      (r) => ({ action: 'staff.remove', entityType: 'staff', entityId: userId, ...r }),
    );
  }

  async findUsers(q: string) {
    return (await repo.findUsers(this.db, q)).map((r) => ({
      id: String(r.id),
      nickname: r.nickname ?? null,
      createdAt: r.created_at.toISOString(),
    }));
  }

  /** Invites with their shows' titles, read in one query for the whole list. */
  private async inviteViews(rows: repo.StaffInviteRow[]): Promise<StaffInvite[]> {
    const showIds = rows.map((r) => JSON.parse(r.show_ids) as string[]);
    const all = [...new Set(showIds.flat())];
    const titles = all.length ? await repo.existingShows(this.db, all) : new Map<string, string>();
    return rows.map((r, i) => ({
      code: r.code,
      ref: inviteRef(r.code),
      shows: showIds[i]!.map((id) => ({ id, title: titles.get(id) ?? '(已删除)' })),
      maxUses: r.max_uses,
      uses: r.uses,
      note: r.note,
      expiresAt: r.expires_at.toISOString(),
      revoked: r.revoked_at !== null,
      createdBy: r.created_by,
      createdAt: r.created_at.toISOString(),
    }));
  }

  async listInvites(): Promise<StaffInvite[]> {
    return this.inviteViews(await repo.listInvites(this.db));
  }

  private async invite(code: string): Promise<StaffInvite> {
    const [view] = await this.inviteViews([(await repo.findInvite(this.db, code))!]);
    return view!;
  }

  async createInvite(
    who: Actor,
    input: { showIds: string[]; maxUses: number; expiresInHours: number; note: string },
    now: Date,
  ): Promise<StaffInvite> {
    const code = inviteCode();
    const showIds = [...new Set(input.showIds)];
    const expiresAt = new Date(now.getTime() + input.expiresInHours * 3_600_000);
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        await this.checkShows(c, showIds);
        await repo.insertInvite(c, {
          code,
          showIds,
          maxUses: input.maxUses,
          note: input.note,
          expiresAt,
          by: who.username,
          now,
        });
      },
      {
        action: 'staff.invite',
        entityType: 'invite',
        entityId: inviteRef(code),
        after: { showIds, maxUses: input.maxUses, expiresAt, note: input.note },
      },
    );
    return this.invite(code);
  }

  async revokeInvite(who: Actor, code: string, now: Date): Promise<StaffInvite> {
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        const inv = await repo.findInvite(c, code, true);
        if (!inv) throw appError('NOT_FOUND', undefined, '邀请码不存在');
        await repo.revokeInvite(c, code, now);
      },
      {
        action: 'staff.invite_revoke',
        entityType: 'invite',
        entityId: inviteRef(code),
        after: { revoked: true },
      },
    );
    return this.invite(code);
  }

  /** A WeChat user redeems an invite code: they become staff for its shows. Redeeming twice is harmless. */
  async redeem(userId: string, code: string, now: Date): Promise<{ shows: { id: string; title: string }[] }> {
    await inTransaction(this.db, async (c) => {
      const inv = await repo.findInvite(c, code, true);
      const bad = (msg: string) => appError('VALIDATION_FAILED', { field: 'code' }, msg);
      if (!inv || inv.revoked_at) throw bad('邀请码无效');
      if (inv.expires_at.getTime() <= now.getTime()) throw bad('邀请码已过期');
      const already = await repo.hasRedeemed(c, code, userId);
      if (!already && inv.uses >= inv.max_uses) throw bad('邀请码已被用完');
      if (!already) await repo.redeem(c, code, userId, now);
      const showIds = JSON.parse(inv.show_ids) as string[];
      const live = [...(await repo.existingShows(c, showIds)).keys()];
      if (live.length) await repo.assign(c, userId, live, `invite:${inviteRef(code)}`, now);
      const who = { adminId: null, username: `user:${userId}`, ip: '' };
      if (!already)
        await recordAudit(
          c,
          {
            actor: who,
            action: 'staff.redeem',
            entityType: 'staff',
            entityId: userId,
            after: { invite: inviteRef(code), showIds },
          },
          now,
        );
    });
    return { shows: await repo.showsOfStaff(this.db, userId) };
  }

  async myShows(userId: string) {
    return { shows: await repo.showsOfStaff(this.db, userId) };
  }

  /** Admissions per gate and the conflicts offline devices reported, for one show. */
  async gates(showId: string): Promise<GateCounts> {
    const [gates, conflicts] = await Promise.all([
      repo.gateCounts(this.db, showId),
      repo.gateConflicts(this.db, showId),
    ]);
    return { available: true, gates, conflicts };
  }
}
