import type { SavedAttendee } from '@showtix/shared-types';
import { ER_DUP_ENTRY, sqlErrno, type Db } from '../db/pool';
import { appError } from '../errors';
import type { IdentityVault } from './crypto';
import { countSaved, deleteSaved, insertSaved, listSaved } from './repo';

const SAVED_MAX = 20;

/** A buyer's frequent attendees (常用观演人): stored encrypted, shown to their owner only. */
export class AttendeeBook {
  constructor(
    private readonly db: Db,
    private readonly vault: IdentityVault,
  ) {}

  async list(userId: string): Promise<SavedAttendee[]> {
    const rows = await listSaved(this.db, userId);
    return rows.map((r) => ({
      id: r.id,
      name: this.vault.decrypt(r.nameEnc),
      idType: r.idType,
      idNumber: this.vault.decrypt(r.idNumberEnc),
      nameMasked: r.nameMasked,
      idMasked: r.idMasked,
    }));
  }

  async add(userId: string, a: { name: string; idType: string; idNumber: string }): Promise<SavedAttendee> {
    if ((await countSaved(this.db, userId)) >= SAVED_MAX)
      throw appError('VALIDATION_FAILED', undefined, `最多保存 ${SAVED_MAX} 位常用观演人`);
    const s = this.vault.seal(a);
    try {
      const id = await insertSaved(this.db, userId, s);
      return { id, ...a, nameMasked: s.nameMasked, idMasked: s.idMasked };
    } catch (err) {
      if (sqlErrno(err) === ER_DUP_ENTRY)
        throw appError('VALIDATION_FAILED', undefined, '该证件已在常用观演人中');
      throw err;
    }
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await deleteSaved(this.db, userId, id))) throw appError('NOT_FOUND');
  }
}
