// Test steps for the runners (scripts/test.mjs, client/scripts/test-all.mjs): name filters and
// skips. Node built-ins only.
//
// A step that cannot run here (e.g. the miniprogram-automator suite without WeChat DevTools)
// calls skipStep(): it prints why, appends {step, reason} to the file named by
// SHOWTIX_SKIP_REPORT (when a runner set it) and exits with SKIP_EXIT. A runner passes the same
// file down to nested runners, so a skip deep inside a step reaches the top summary as SKIPPED,
// never as PASS.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Exit code of a skipped step (the automake/TAP convention for "skipped"). */
export const SKIP_EXIT = 77;
export const SKIP_REPORT_ENV = 'SHOWTIX_SKIP_REPORT';

/** Ends this process as a skipped step, saying why. */
export function skipStep(step, reason) {
  console.log(`SKIPPED ${step}: ${reason}`);
  const file = process.env[SKIP_REPORT_ENV];
  if (file) appendFileSync(file, `${JSON.stringify({ step, reason })}\n`);
  process.exit(SKIP_EXIT);
}

/**
 * The steps whose name contains one of the filters (all steps without filters). A filter that
 * matches no step is a typo, not "nothing to test": it ends the run with the list of names.
 */
export function selectSteps(steps, filters, runner) {
  const unknown = filters.filter((f) => !steps.some(([name]) => name.includes(f)));
  if (unknown.length) {
    console.error(`${runner}: no test step matches ${unknown.map((f) => `"${f}"`).join(', ')}.`);
    console.error('Steps (a filter picks those whose name contains it):');
    for (const [name] of steps) console.error(`  - ${name}`);
    process.exit(2);
  }
  return filters.length ? steps.filter(([name]) => filters.some((f) => name.includes(f))) : steps;
}

function readSkips(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/**
 * Runs steps one after another (all of them, even after a failure) and returns their results:
 * status PASS, FAIL or SKIPPED (the step exited SKIP_EXIT), with the skips reported from inside
 * the step (`skips`: [{step, reason}]).
 */
export function runSteps(steps, { cwd, env = {}, before = () => undefined, banner = (n) => n }) {
  let own;
  let report = process.env[SKIP_REPORT_ENV];
  if (!report) {
    own = mkdtempSync(path.join(tmpdir(), 'showtix-skips-'));
    report = path.join(own, 'skips.jsonl');
  }
  const results = [];
  try {
    for (const [name, cmd, args, dir] of steps) {
      console.log(banner(name));
      before(name);
      const seen = readSkips(report).length;
      const t0 = Date.now();
      const r = spawnSync(cmd, args, {
        cwd: dir ?? cwd,
        stdio: 'inherit',
        env: { ...process.env, FORCE_COLOR: '0', ...env, [SKIP_REPORT_ENV]: report },
      });
      const skips = readSkips(report).slice(seen);
      const status = r.status === 0 ? 'PASS' : r.status === SKIP_EXIT ? 'SKIPPED' : 'FAIL';
      results.push({ name, status, skips, s: (Date.now() - t0) / 1000 });
    }
  } finally {
    if (own) rmSync(own, { recursive: true, force: true });
  }
  return results;
}

/**
 * The summary lines: one per step (a skipped step with its reason), and under a step that ran,
 * one per part of it that was skipped.
 */
export function summary(results) {
  const lines = [];
  for (const r of results) {
    const head = `${r.status.padEnd(7)}  ${r.name}  (${r.s.toFixed(1)} s)`;
    if (r.status === 'SKIPPED') {
      const why = r.skips.map((k) => k.reason).join('; ') || `exit code ${SKIP_EXIT}`;
      lines.push(`${head}: ${why}`);
      continue;
    }
    lines.push(head);
    for (const k of r.skips) lines.push(`  SKIPPED  ${r.name} › ${k.step}: ${k.reason}`);
  }
  return lines;
}

/** A run fails when a step failed; skipped steps are shown, not counted as passes or failures. */
export const exitCode = (results) => (results.some((r) => r.status === 'FAIL') ? 1 : 0);
