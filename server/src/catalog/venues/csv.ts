import { SeatSpecSchema, ZoneSpecSchema, type ParsedLayout, type SeatSpecInput } from '@showtix/shared-types';
import { z } from 'zod';
import { appError } from '../../errors';

/** Minimal RFC 4180 reader: quoted fields, doubled quotes, CRLF or LF, a leading BOM. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

const HEADERS: Record<string, keyof SeatSpecInput> = {
  section: 'section',
  区域: 'section',
  区: 'section',
  row: 'row',
  排: 'row',
  number: 'number',
  seat: 'number',
  座: 'number',
  座号: 'number',
  座位号: 'number',
  x: 'x',
  y: 'y',
};

/**
 * A text cell that a spreadsheet would run as a formula (= + - @, or a leading tab or CR) gets a
 * leading apostrophe: nicknames and show titles come from users, and "=HYPERLINK(...)" in an
 * export must stay text when an organiser opens it (CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(v: string | number): string {
  const s = typeof v === 'string' && FORMULA_START.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: (string | number)[][]): string {
  // The BOM makes Excel read the file as UTF-8 (Chinese section names).
  return '\uFEFF' + rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function seatsToCsv(seats: SeatSpecInput[]): string {
  return toCsv([
    ['section', 'row', 'number', 'x', 'y'],
    ...seats.map((s) => [s.section, s.row, s.number, s.x, s.y]),
  ]);
}

function lineError(line: number, message: string): never {
  throw appError('VALIDATION_FAILED', { line }, `第 ${line} 行：${message}`);
}

/** CSV with a header row naming the columns (section,row,number,x,y or 区,排,座,x,y). */
function parseSeatsCsv(text: string): ParsedLayout {
  const rows = parseCsv(text);
  if (rows.length < 2) lineError(1, '至少需要表头和一行座位');
  const columns = rows[0]!.map((h) => HEADERS[h.trim().toLowerCase()]);
  for (const need of ['section', 'row', 'number', 'x', 'y'] as const) {
    if (!columns.includes(need)) lineError(1, `缺少列 ${need}`);
  }
  const seats = rows.slice(1).map((cells, i) => {
    const raw: Record<string, string | number> = {};
    columns.forEach((col, k) => {
      if (col) raw[col] = col === 'x' || col === 'y' ? Number(cells[k]) : (cells[k] ?? '').trim();
    });
    const r = SeatSpecSchema.safeParse(raw);
    if (!r.success)
      lineError(i + 2, r.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('；'));
    return r.data;
  });
  return { seats, zones: [] };
}

const JsonLayoutSchema = z.union([
  z.array(SeatSpecSchema),
  z.object({ seats: z.array(SeatSpecSchema).default([]), zones: z.array(ZoneSpecSchema).default([]) }),
]);

function parseJson(text: string): ParsedLayout {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw appError('VALIDATION_FAILED', undefined, '不是合法的 JSON 文件');
  }
  const r = JsonLayoutSchema.safeParse(data);
  if (!r.success) {
    const first = r.error.issues[0]!;
    throw appError(
      'VALIDATION_FAILED',
      { path: first.path.join('.') },
      `JSON 格式不正确：${first.path.join('.')} ${first.message}`,
    );
  }
  return Array.isArray(r.data) ? { seats: r.data, zones: [] } : r.data;
}

export function parseLayout(format: 'csv' | 'json', text: string): ParsedLayout {
  return format === 'csv' ? parseSeatsCsv(text) : parseJson(text);
}
