import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { SavedAttendee } from '@showtix/shared-types';
import { ER_DUP_ENTRY, sqlErrno, type Db } from '../db/pool';
import { appError } from '../errors';
import type { IdentityVault } from './crypto';

const SAVED_MAX = 20;

/** A buyer's frequent attendees (常用观演人): stored encrypted, shown to their owner only. */
export class AttendeeBook {
  constructor(
    private readonly db: Db,
    private readonly vault: IdentityVault,
  ) {}

  async list(userId: string): Promise<SavedAttendee[]> {
    const [rows] = await this.db.query<RowDataPacket[]>(
      'SELECT id, id_type, name_enc, id_number_enc, name_masked, id_masked FROM user_attendees WHERE user_id = ? ORDER BY id',
      [userId],
    );
    return rows.map((r) => ({
      id: String(r.id),
      name: this.vault.decrypt(r.name_enc),
      idType: r.id_type,
      idNumber: this.vault.decrypt(r.id_number_enc),
      nameMasked: r.name_masked,
      idMasked: r.id_masked,
    }));
  }

  async add(userId: string, a: { name: string; idType: string; idNumber: string }): Promise<SavedAttendee> {
    const [[count]] = await this.db.query<RowDataPacket[]>(
      'SELECT COUNT(*) n FROM user_attendees WHERE user_id = ?',
      [userId],
    );
    if (Number(count!.n) >= SAVED_MAX)
      throw appError('VALIDATION_FAILED', undefined, `最多保存 ${SAVED_MAX} 位常用观演人`);
    const s = this.vault.seal(a);
    try {
      const [res] = await this.db.query<ResultSetHeader>(
        `INSERT INTO user_attendees (user_id, id_type, name_enc, id_number_enc, name_masked, id_masked, id_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [userId, s.idType, s.nameEnc, s.idNumberEnc, s.nameMasked, s.idMasked, s.idHash],
      );
      return { id: String(res.insertId), ...a, nameMasked: s.nameMasked, idMasked: s.idMasked };
    } catch (err) {
      if (sqlErrno(err) === ER_DUP_ENTRY)
        throw appError('VALIDATION_FAILED', undefined, '该证件已在常用观演人中');
      throw err;
    }
  }

  async remove(userId: string, id: string): Promise<void> {
    const [res] = await this.db.query<ResultSetHeader>(
      'DELETE FROM user_attendees WHERE id = ? AND user_id = ?',
      [id, userId],
    );
    if (res.affectedRows === 0) throw appError('NOT_FOUND');
  }
}
