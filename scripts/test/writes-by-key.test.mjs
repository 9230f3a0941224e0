// A write that picks rows by id and a status (`UPDATE t SET ... WHERE id = ? AND status IN (?)`)
// names its table through server/src/db/sql.ts `byKey` (FORCE INDEX (PRIMARY)), so it locks each
// row by its key first, as every other write of the row does. Planned on a status-leading index
// instead, it locked the index entry first, and against a write of the same row planned on the
// key that was a deadlock (issue 14, 2026-12-05; server/test/orders.row-locks.test.ts). This
// check keeps a new such write from leaving the rule out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { serverSrc as src, tsFiles } from '../lib/server-sources.mjs';

/** An UPDATE whose WHERE picks by the primary key `id` and tests `status`. */
const BY_ID_AND_STATUS = /\bUPDATE\b[\s\S]*\bWHERE\b(?=[\s\S]*\bid\s*(=|IN\b))(?=[\s\S]*\bstatus\b)/i;
/** Its table named through byKey. */
const THROUGH_BY_KEY = /\bUPDATE\s+\$\{byKey\(/;

/** The by-id-and-status UPDATEs of one file's text that do not name their table through byKey. */
export function writesNotByKey(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    let sql;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) sql = node.text;
    // A template as written, its substitutions included (`${byKey('orders')}`).
    else if (ts.isTemplateExpression(node)) sql = node.getText(sf).slice(1, -1);
    if (sql !== undefined && BY_ID_AND_STATUS.test(sql) && !THROUGH_BY_KEY.test(sql)) {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      found.push(`${line}: ${sql.replace(/\s+/g, ' ').slice(0, 70)}`);
    }
    if (sql === undefined) ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

test('writes by id and status name their table through byKey (server/src)', () => {
  const offenders = tsFiles(src)
    .map((f) => [path.relative(src, f).split(path.sep).join('/'), writesNotByKey(f, readFileSync(f, 'utf8'))])
    .filter(([, found]) => found.length > 0)
    .map(([rel, found]) => `${rel}\n    ${found.join('\n    ')}`);
  assert.deepEqual(
    offenders,
    [],
    "name the table as `UPDATE ${byKey('<table>')} SET ...` (server/src/db/sql.ts)",
  );
});

test('the check finds such writes, by string or template, and lets the others be', () => {
  const hits = (text) => writesNotByKey('probe.ts', text).length;
  assert.equal(hits("q('UPDATE orders SET status = ? WHERE id = ? AND status IN (?)')"), 1);
  assert.equal(hits('q(`UPDATE ${table} SET status = ? WHERE id IN (?) AND status = ?`)'), 1);
  assert.equal(hits("q(`UPDATE ${byKey('orders')} SET status = ? WHERE id = ? AND status IN (?)`)"), 0);
  assert.equal(hits('q(`UPDATE ${byKey(table)} SET status = ?${c} WHERE id = ? AND status IN (?)`)'), 0);
  // Not by id, or no status: no index of a status can be planned against the key.
  assert.equal(hits("q('UPDATE tickets SET status = ? WHERE order_id = ? AND status IN (?)')"), 0);
  assert.equal(hits("q('UPDATE orders SET pay_checked_at = ? WHERE id = ?')"), 0);
  assert.equal(hits('// UPDATE orders SET status = 1 WHERE id = 2 AND status = 3'), 0);
});
