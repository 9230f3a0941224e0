import type { SavedAttendee } from '@showtix/shared-types';
import { normaliseAttendees, type AttendeeInput, type IdType } from './attendees';
import { request } from './http';

/** The buyer's frequent attendees (常用观演人), full values for filling orders, masked for display. */
export type Saved = SavedAttendee & { idType: IdType };

const path = '/api/v1/me/attendees';

export async function listSaved(): Promise<Saved[]> {
  return (await request<{ items: Saved[] }>(path, { auth: true })).items;
}

export function addSaved(a: AttendeeInput): Promise<Saved> {
  return request<Saved>(path, { method: 'POST', auth: true, body: normaliseAttendees([a])[0] });
}

export async function removeSaved(id: string): Promise<void> {
  await request<null>(`${path}/${encodeURIComponent(id)}`, { method: 'DELETE', auth: true });
}

/** The attendee as an order needs it. */
export function toInput(s: Saved): AttendeeInput {
  return { name: s.name, idType: s.idType, idNumber: s.idNumber };
}

/** Same person on both sides (ID type and number; numbers compared as the schema normalises). */
export function samePerson(a: { idType: string; idNumber: string }, b: { idType: string; idNumber: string }) {
  return a.idType === b.idType && a.idNumber.trim().toUpperCase() === b.idNumber.trim().toUpperCase();
}
