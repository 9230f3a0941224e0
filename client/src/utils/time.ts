/**
 * Dates are shown in Beijing time whatever the device's zone: shows happen in China. Done by
 * shifting the instant by +8h and reading the UTC fields, because Intl time-zone support is
 * uneven across mini-program JS engines.
 */
const BEIJING_OFFSET_MS = 8 * 3600_000;
const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: string;
}

export function beijingParts(iso: string | number | Date): DateParts {
  const d = new Date(new Date(iso).getTime() + BEIJING_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    weekday: WEEKDAYS[d.getUTCDay()]!,
  };
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** "2027.01.15 周五 19:30" */
export function formatDateTime(iso: string): string {
  const p = beijingParts(iso);
  return `${p.year}.${p2(p.month)}.${p2(p.day)} ${p.weekday} ${p2(p.hour)}:${p2(p.minute)}`;
}

/** "01月15日 19:30" (compact, for order lines). */
export function formatShortDateTime(iso: string): string {
  const p = beijingParts(iso);
  return `${p2(p.month)}月${p2(p.day)}日 ${p2(p.hour)}:${p2(p.minute)}`;
}

/** "2027.01.15" or "2027.01.15 - 01.17" for a run of sessions. */
export function formatDateRange(first: string | null, last: string | null): string {
  if (!first) return '日期待定';
  const a = beijingParts(first);
  const head = `${a.year}.${p2(a.month)}.${p2(a.day)}`;
  if (!last) return head;
  const b = beijingParts(last);
  if (a.year === b.year && a.month === b.month && a.day === b.day) return head;
  const tail = a.year === b.year ? `${p2(b.month)}.${p2(b.day)}` : `${b.year}.${p2(b.month)}.${p2(b.day)}`;
  return `${head} - ${tail}`;
}

export interface Duration {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function splitDuration(ms: number): Duration {
  const total = Math.max(0, Math.floor(ms / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/** "2天 03:04:05", "03:04:05", "04:05". */
export function formatCountdown(ms: number): string {
  const d = splitDuration(ms);
  const clock =
    d.days > 0 || d.hours > 0
      ? `${p2(d.hours)}:${p2(d.minutes)}:${p2(d.seconds)}`
      : `${p2(d.minutes)}:${p2(d.seconds)}`;
  return d.days > 0 ? `${d.days}天 ${clock}` : clock;
}

/** "19:30:05" (Beijing time), for gate times where seconds matter. */
export function formatClock(iso: string | number): string {
  const p = beijingParts(iso);
  const s = new Date(new Date(iso).getTime() + BEIJING_OFFSET_MS).getUTCSeconds();
  return `${p2(p.hour)}:${p2(p.minute)}:${p2(s)}`;
}
