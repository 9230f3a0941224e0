import { format } from 'mysql2';
import { connectionOptions, createPool } from '../src/db/pool';
import { formatSql, queryFormat } from '../src/db/sql';
import { testConfig } from './helpers/env';

describe('queryFormat: the pools format queries as mysql2 does, and send value-less text as it is', () => {
  const at = new Date(Date.UTC(2026, 11, 5, 1, 2, 3));

  it('formats values exactly as mysql2 with UTC dates (and as formatSql)', () => {
    const sql = "SELECT ? AS a, ? AS b, ? AS c, ?? AS d FROM t WHERE x = 'it''s ?' AND y IN (?)";
    const values = ["o'brien", 42, at, 'col', [1, 2, 3]];
    expect(queryFormat(sql, values)).toBe(format(sql, values, false, 'Z'));
    expect(queryFormat(sql, values)).toBe(formatSql(sql, values));
    expect(queryFormat(sql, values)).toContain("'2026-12-05 01:02:03.000'");
  });

  it('leaves a statement without values as it is, placeholders and quotes included', () => {
    const built = "INSERT INTO t (a) VALUES ('a ? b'), ('c\\'?'); SELECT '?'";
    expect(queryFormat(built, undefined)).toBe(built);
    expect(queryFormat(built, [])).toBe(built);
    expect(queryFormat(built, null)).toBe(built);
  });

  it('is the pools’ formatter, and a real query with values reads back what it sent', async () => {
    const config = testConfig();
    expect(connectionOptions(config.mysqlUrl).queryFormat).toBe(queryFormat);
    const pool = createPool(config.mysqlUrl.replace(/\/[^/]*$/, '/mysql'), 1);
    try {
      const [rows] = await pool.query<import('mysql2').RowDataPacket[]>('SELECT ? AS s, ? AS n, ? AS q', [
        "o'brien ?",
        7,
        '?',
      ]);
      expect(rows[0]).toEqual({ s: "o'brien ?", n: 7, q: '?' });
      const [plain] = await pool.query<import('mysql2').RowDataPacket[]>("SELECT '?' AS q");
      expect(plain[0]).toEqual({ q: '?' });
    } finally {
      await pool.end();
    }
  });
});
