import type { BlockEntry, RiskFlag } from '@showtix/shared-types';
import type { IdentityVault } from '../../attendees/crypto';
import { ER_DUP_ENTRY, sqlErrno, type Db } from '../../db/pool';
import { appError } from '../../errors';
import type { Actor } from '../../audit/actor';
import { audited } from '../../audit/tx';
import * as repo from './repo';
import type { BlockEntryRecord } from './repo';

export interface BlockInput {
  kind: BlockEntry['kind'];
  value: string;
  idType: string;
  reason: string;
}

function entryView(r: BlockEntryRecord): BlockEntry {
  return {
    id: r.id,
    kind: r.kind,
    value: r.kind === 'id' ? `${r.value.slice(0, 12)}…` : r.value,
    reason: r.reason,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * The anti-scalper blocklist and risk flags of the fair-access rules (tables of its migration),
 * edited here. Purchases read the blocklist through RiskService, which each instance refreshes
 * every few seconds; `refresh` makes this instance reload at once.
 */
export class RiskAdminService {
  constructor(
    private readonly db: Db,
    private readonly vault: IdentityVault,
    private readonly refresh: () => void,
  ) {}

  async blocklist(): Promise<BlockEntry[]> {
    return (await repo.latestBlocks(this.db)).map(entryView);
  }

  async block(who: Actor, input: BlockInput, now: Date): Promise<BlockEntry> {
    // An ID number is kept only as the keyed hash the purchase path compares against: of the
    // number alone, so the block holds whichever document type a buyer later claims it is.
    const value = input.kind === 'id' ? this.vault.idHash(input.value) : input.value;
    const id = await audited(
      this.db,
      who,
      now,
      async (c) => {
        try {
          return await repo.insertBlock(c, {
            kind: input.kind,
            value,
            reason: input.reason,
            createdBy: who.username,
            createdAt: now,
          });
        } catch (err) {
          if (sqlErrno(err) === ER_DUP_ENTRY)
            throw appError('VALIDATION_FAILED', { field: 'value' }, '已在黑名单中');
          throw err;
        }
      },
      (newId) => ({
        action: 'risk.block',
        entityType: 'blocklist',
        entityId: newId,
        after: {
          kind: input.kind,
          value: input.kind === 'id' ? '(证件号已加密)' : value,
          reason: input.reason,
        },
      }),
    );
    this.refresh();
    return entryView((await repo.findBlock(this.db, id))!);
  }

  async unblock(who: Actor, id: string, now: Date): Promise<void> {
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        const row = await repo.findBlock(c, id, true);
        if (!row) throw appError('NOT_FOUND', undefined, '黑名单记录不存在');
        await repo.deleteBlock(c, id);
        return entryView(row);
      },
      (before) => ({ action: 'risk.unblock', entityType: 'blocklist', entityId: id, before }),
    );
    this.refresh();
  }

  async flags(): Promise<RiskFlag[]> {
    return (await repo.latestRiskFlags(this.db)).map((f) => ({
      ...f,
      firstSeen: f.firstSeen.toISOString(),
      lastSeen: f.lastSeen.toISOString(),
    }));
  }
}
