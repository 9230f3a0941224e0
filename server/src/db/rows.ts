import type { RowDataPacket } from 'mysql2/promise';

/** One row of a query, typed as the columns it selects. */
export type Packet<T> = RowDataPacket & T;

/** A query's rows, typed as the columns it selects. */
export type Rows<T> = Packet<T>[];

/** A snake_case column name as its camelCase field name ('order_no' → 'orderNo'). */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** A row's type under camelCase field names, the same value types. */
export type Camelized<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] };

const camelNames = new Map<string, string>();

function camelName(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

/**
 * A row as services see it: every column the query selected, under its camelCase name, the same
 * value (no conversion). In memory only; the repos map at their boundary so the snake_case row
 * type stays theirs (issue 15). The names are computed once per column and remembered.
 */
export function camelRow<T extends object>(row: T): Camelized<T> {
  const out: Record<string, unknown> = {};
  for (const column of Object.keys(row)) out[camelName(column)] = (row as Record<string, unknown>)[column];
  return out as Camelized<T>;
}

/**
 * The row camelRow was given back, under its column names, in the same order: for what a repo
 * records as the row itself (the audit log has stored a session's columns since it began). Exact
 * for column names of lower-case words joined by '_' with no digit after one ('show_id').
 */
export function columnsOf(record: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record))
    out[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
  return out;
}
