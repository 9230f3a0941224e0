import { AttendeeSchema } from './schemas';
import { ID_TYPES } from './shared';

export type IdType = (typeof ID_TYPES)[number];

export interface AttendeeInput {
  name: string;
  idType: IdType;
  idNumber: string;
}

export const ID_TYPE_LABELS: Record<IdType, string> = {
  id_card: '身份证',
  passport: '护照',
  hk_macau_permit: '港澳居民来往内地通行证',
  taiwan_permit: '台湾居民来往大陆通行证',
};

export const ID_TYPE_OPTIONS = ID_TYPES.map((t) => ({ value: t, label: ID_TYPE_LABELS[t] }));

export function blankAttendee(): AttendeeInput {
  return { name: '', idType: 'id_card', idNumber: '' };
}

export type AttendeeErrors = Partial<Record<'name' | 'idNumber', string>>;

function fieldMessage(field: string, idType: IdType, value: string): string {
  if (field === 'name') return value.trim() ? '姓名最多 32 个字' : '请填写观演人姓名';
  if (!value.trim()) return '请填写证件号码';
  return idType === 'id_card' ? '身份证号码有误，请核对' : '证件号码格式不正确';
}

/**
 * Checks each attendee with the shared AttendeeSchema (the server runs the same one) and that
 * no ID is used twice: real-name sessions sell one ticket per person.
 */
export function validateAttendees(list: AttendeeInput[]): { ok: boolean; errors: AttendeeErrors[] } {
  const errors: AttendeeErrors[] = list.map((a) => {
    const r = AttendeeSchema.safeParse(a);
    if (r.success) return {};
    const e: AttendeeErrors = {};
    for (const issue of r.error.issues) {
      const field = issue.path[0] === 'name' ? 'name' : 'idNumber';
      e[field] ??= fieldMessage(field, a.idType, field === 'name' ? a.name : a.idNumber);
    }
    return e;
  });
  const seen = new Map<string, number>();
  list.forEach((a, i) => {
    const key = `${a.idType}:${a.idNumber.trim().toUpperCase()}`;
    if (!a.idNumber.trim()) return;
    if (seen.has(key) && !errors[i]!.idNumber) errors[i]!.idNumber = '同一证件只能购买一张票';
    else seen.set(key, i);
  });
  return { ok: errors.every((e) => !e.name && !e.idNumber), errors };
}

/** What goes into the order request: trimmed, ID upper-cased (as the schema normalises). */
export function normaliseAttendees(list: AttendeeInput[]): AttendeeInput[] {
  return list.map((a) => ({
    name: a.name.trim(),
    idType: a.idType,
    idNumber: a.idNumber.trim().toUpperCase(),
  }));
}
