import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { BlockEntry, RiskFlag } from '@showtix/shared-types';
import type { IdentityVault } from '../../attendees/crypto';
import { ER_DUP_ENTRY, sqlErrno, type Db } from '../../db/pool';
import { appError } from '../../errors';
import type { Actor } from '../../audit/actor';
import { audited } from '../../audit/tx';

type Row = RowDataPacket & Record<string, any>;

export interface BlockInput {
  kind: BlockEntry['kind'];
  value: string;
  idType: string;
  reason: string;
}

function entryView(r: Row): BlockEntry {
  const kind = r.kind as BlockEntry['kind'];
  return {
    id: String(r.id),
    kind,
    value: kind === 'id' ? `${String(r.value).slice(0, 12)}…` : String(r.value),
    reason: r.reason,
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
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
    const [rows] = await this.db.query<Row[]>('SELECT * FROM blocklist ORDER BY id DESC LIMIT 1000');
    return rows.map(entryView);
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
          const [res] = await c.query<ResultSetHeader>(
            'INSERT INTO blocklist (kind, value, reason, created_by, created_at) VALUES (?, ?, ?, ?, ?)',
            [input.kind, value, input.reason, who.username, now],
          );
          return String(res.insertId);
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
    const [[row]] = await this.db.query<Row[]>('SELECT * FROM blocklist WHERE id = ?', [id]);
    return entryView(row!);
  }

  async unblock(who: Actor, id: string, now: Date): Promise<void> {
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        const [[row]] = await c.query<Row[]>('SELECT * FROM blocklist WHERE id = ? FOR UPDATE', [id]);
        if (!row) throw appError('NOT_FOUND', undefined, '黑名单记录不存在');
        await c.query('DELETE FROM blocklist WHERE id = ?', [id]);
        return entryView(row);
      },
      (before) => ({ action: 'risk.unblock', entityType: 'blocklist', entityId: id, before }),
    );
    this.refresh();
  }

  async flags(): Promise<RiskFlag[]> {
    const [rows] = await this.db.query<Row[]>('SELECT * FROM risk_flags ORDER BY last_seen DESC LIMIT 500');
    return rows.map((r) => ({
      id: String(r.id),
      kind: r.kind,
      subject: r.subject,
      accounts: Number(r.accounts),
      firstSeen: r.first_seen.toISOString(),
      lastSeen: r.last_seen.toISOString(),
    }));
  }
}
