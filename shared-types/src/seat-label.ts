/**
 * How a section and a seat are written, the same on every page of both front ends and in the
 * server's exports. Organisers name sections either by a letter ("A") or in full ("内场A区",
 * "看台"): only a bare letter/number code gets "区" appended, so "内场A区" never becomes
 * "内场A区区".
 */
export function sectionLabel(section: string): string {
  const s = section.trim();
  return /^[A-Za-z0-9]{1,4}$/.test(s) ? `${s}区` : s;
}

export interface SeatLabelParts {
  section: string;
  row: string | number;
  number: string | number;
}

/** "内场A区 3排12座", "A区 10排5座". */
export function seatLabel(s: SeatLabelParts): string {
  return `${sectionLabel(s.section)} ${s.row}排${s.number}座`;
}
