// The test runners' step handling (scripts/steps.mjs): a filter that matches no step fails with
// the list of names, and a skipped step (or a skipped part of a step, however deeply nested)
// is reported as SKIPPED with its reason, never as PASS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const steps = path.join(root, 'scripts/steps.mjs');

/** Runs a node script with no skip report inherited from whoever runs this test. */
function node(args, cwd = root) {
  const env = { ...process.env };
  delete env.SHOWTIX_SKIP_REPORT;
  const r = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

test('npm test with a filter that matches no step fails at once, listing the steps', () => {
  const r = node(['scripts/test.mjs', 'sever']);
  assert.equal(r.status, 2, r.out + r.err);
  assert.match(r.err, /no test step matches "sever"/);
  for (const name of ['lint and format', 'server', 'mini-program'])
    assert.match(r.err, new RegExp(`- ${name}\\n`));
  assert.doesNotMatch(r.out, /=====/, 'nothing was installed, started or run');
});

test("the client's runner refuses an unknown filter too", () => {
  const r = node(['client/scripts/test-all.mjs', 'automatr']);
  assert.equal(r.status, 2, r.out + r.err);
  assert.match(r.err, /no test step matches "automatr"[\s\S]*- miniprogram-automator/);
});

test('the automator suite without WeChat DevTools is SKIPPED with its reason in the summary', () => {
  const r = node(['client/scripts/test-all.mjs', 'automator']);
  assert.equal(r.status, 0, r.out + r.err);
  const summary = r.out.slice(r.out.indexOf('=== client test summary ==='));
  assert.match(summary, /SKIPPED {2}miniprogram-automator {2}\([\d.]+ s\): WeChat DevTools not found/);
  assert.doesNotMatch(summary, /PASS/);
});

test('a skip inside a step reaches the outer summary; a failure still fails the run', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'showtix-steps-'));
  try {
    const skipper = path.join(dir, 'skipper.mjs');
    writeFileSync(
      skipper,
      `import { skipStep } from '${steps}';\nskipStep('device suite', 'no device here');\n`,
    );
    // An inner runner (like the client's) with a passing step and a skipping one.
    const inner = path.join(dir, 'inner.mjs');
    writeFileSync(
      inner,
      `import { exitCode, runSteps, summary } from '${steps}';
const r = runSteps([['ok', process.execPath, ['-e', '']], ['device suite', process.execPath, ['${skipper}']]], { cwd: '${dir}' });
console.log(summary(r).join('\\n'));
process.exit(exitCode(r));
`,
    );
    const outer = path.join(dir, 'outer.mjs');
    writeFileSync(
      outer,
      `import { exitCode, runSteps, summary } from '${steps}';
const r = runSteps([['client', process.execPath, ['${inner}']], ['broken', process.execPath, ['-e', 'process.exit(3)']]], { cwd: '${dir}' });
console.log('OUTER');
console.log(summary(r).join('\\n'));
process.exit(exitCode(r));
`,
    );
    const r = node([outer], dir);
    assert.equal(r.status, 1, r.out + r.err);
    const lines = r.out.slice(r.out.indexOf('OUTER')).split('\n').slice(1, 4);
    assert.match(lines[0], /^PASS {5}client {2}\(/);
    assert.equal(lines[1], '  SKIPPED  client › device suite: no device here');
    assert.match(lines[2], /^FAIL {5}broken {2}\(/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
