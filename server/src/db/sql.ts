import { format } from 'mysql2';

/**
 * Every stored time is UTC, whatever TZ the process runs under: DATETIME columns hold UTC, the
 * pool reads them back as UTC (timezone 'Z') and sets each session's time_zone to +00:00.
 */
export const SQL_TIME_ZONE = 'Z';

/**
 * The one way to build SQL text with values inlined (batched multi-statement writes). A bare
 * mysql.format renders Dates in the process's local time, so an order written under
 * TZ=Asia/Shanghai would expire 8 hours late; this renders them in UTC like the pool does.
 */
export function formatSql(sql: string, values: unknown[]): string {
  return format(sql, values as Parameters<typeof format>[1], false, SQL_TIME_ZONE);
}
