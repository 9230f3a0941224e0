// Issue 15's typed data layer, kept so by the build: SQL lives only in repos (`*repo.ts`, files
// under a `repo/` folder) and in server/src/db/. Any other server/src file that holds SQL text
// in a string or template (SELECT ... FROM, INSERT INTO, UPDATE ... SET, DELETE FROM) or calls
// `.query(` / `.execute(` fails here, unless it is on the allow-list below with its reason.
// Comments are not looked at (they may describe SQL); the TypeScript parser finds the literals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { serverSrc as src, tsFiles } from '../lib/server-sources.mjs';

/**
 * Files allowed to hold SQL outside the data layer, path (under server/src) -> why. Empty since
 * every query moved to a repo (issue 15); an entry whose file no longer holds SQL (or no longer
 * exists) fails too, so the list cannot go stale.
 * @type {Map<string, string>}
 */
const NOT_YET = new Map();

/** Where SQL belongs: repos and the db layer. */
const isDataLayer = (rel) =>
  /(^|\/|-)repo\.ts$/.test(rel) || /(^|\/)repo\//.test(rel) || rel.startsWith('db/');

const SQL = [
  /\bSELECT\b[\s\S]*\bFROM\b/,
  /\bINSERT\s+(IGNORE\s+)?INTO\b/,
  /\bUPDATE\b[\s\S]*\bSET\b/,
  /\bDELETE\s+FROM\b/,
  /\bREPLACE\s+INTO\b/,
];

/** Calls named query/execute that are not SQL, by the name of what they are called on. */
const NOT_SQL_RECEIVERS = new Map([
  ['pay', "the WeChat Pay client's order query (wechat/pay.ts): a payment's state over HTTP"],
  ['refunds', 'RefundService.execute (refunds/service.ts): sends a requested refund to WeChat Pay'],
]);

/** The SQL found in one file's text: `line: what`, empty if none. */
function sqlIn(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const at = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node) => {
    let literal;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literal = node.text;
    else if (ts.isTemplateExpression(node))
      literal = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? ');
    if (literal !== undefined && SQL.some((re) => re.test(literal)))
      found.push(`${at(node)}: ${literal.replace(/\s+/g, ' ').slice(0, 60)}`);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['query', 'execute'].includes(node.expression.name.text)
    ) {
      const receiver = node.expression.expression;
      const name = ts.isPropertyAccessExpression(receiver)
        ? receiver.name.text
        : ts.isIdentifier(receiver)
          ? receiver.text
          : '';
      if (!NOT_SQL_RECEIVERS.has(name)) found.push(`${at(node)}: .${node.expression.name.text}(`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const offenders = new Map(
  tsFiles(src)
    .map((f) => [path.relative(src, f).split(path.sep).join('/'), f])
    .filter(([rel]) => !isDataLayer(rel))
    .map(([rel, f]) => [rel, sqlIn(f, readFileSync(f, 'utf8'))])
    .filter(([, found]) => found.length > 0),
);

test('SQL lives only in repos and db/ (server/src)', () => {
  const unexpected = [...offenders].filter(([rel]) => !NOT_YET.has(rel));
  assert.deepEqual(
    unexpected.map(([rel, found]) => `${rel}\n    ${found.join('\n    ')}`),
    [],
    "move these queries into the folder's repo.ts (a named, typed function) or, for a file not " +
      'finished yet, add it to NOT_YET with the reason',
  );
});

test('the allow-list only shrinks: every entry still holds SQL and gives a reason', () => {
  for (const [rel, why] of NOT_YET) {
    assert.ok(existsSync(path.join(src, rel)), `${rel} is gone: remove it from NOT_YET`);
    assert.ok(offenders.has(rel), `${rel} holds no SQL any more: remove it from NOT_YET`);
    assert.ok(why.length >= 10, `${rel}: say why it is still on NOT_YET`);
  }
});

test('the check finds SQL in strings and templates, not in comments or the WeChat Pay query', () => {
  const hits = (text) => sqlIn('probe.ts', text).length;
  assert.equal(hits('// SELECT id FROM orders\n/* UPDATE orders SET x */ const a = 1;'), 0);
  assert.equal(hits('const tx = await this.d.pay.query(order.order_no);'), 0);
  assert.equal(hits("const q = 'DELETE FROM seat_claims WHERE order_id = ?';"), 1);
  assert.equal(hits('const q = `SELECT ${cols} FROM orders`;'), 1);
  assert.equal(hits('await conn.query(s.sql);'), 1);
  assert.equal(hits('await this.d.refunds.execute(refundId, now);'), 0);
  assert.equal(hits("db.execute('INSERT IGNORE INTO t VALUES (?)', [1]);"), 2);
});
