/** WeChat Pay speaks Beijing time (+08:00) in RFC 3339 strings and bill dates. */
const OFFSET_MS = 8 * 3600 * 1000;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function beijingParts(ms: number) {
  const d = new Date(Math.floor(ms / 1000) * 1000 + OFFSET_MS);
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
  };
}

/** e.g. 2018-06-08T10:34:56+08:00 */
export function rfc3339(ms: number): string {
  const p = beijingParts(ms);
  return `${p.date}T${p.time}+08:00`;
}

/** e.g. 2018-06-08 (the Beijing calendar day, as bills use) */
export function beijingDate(ms: number): string {
  return beijingParts(ms).date;
}

/** e.g. 2018-06-08 10:34:56 (trade bill rows) */
export function beijingDateTime(ms: number): string {
  const p = beijingParts(ms);
  return `${p.date} ${p.time}`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of a strict RFC 3339 timestamp, or null. */
export function parseRfc3339(value: string): number | null {
  if (!RFC3339.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
