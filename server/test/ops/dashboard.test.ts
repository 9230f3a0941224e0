import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startWorker } from '../../src/server';
import { createTestEnv, type TestEnv } from '../helpers/env';

/**
 * The Grafana dashboard (deploy/grafana/showtix.json) and the alert rules
 * (deploy/prometheus/alerts.yml) read only metrics the server really exports: every metric name
 * in every expression is one a running process shows on /metrics (a worker, which registers the
 * job metrics too; default process metrics on as outside tests). A renamed metric fails here,
 * not silently on a dashboard that goes blank.
 */
const DEPLOY = path.resolve(__dirname, '../../../deploy');
/** Series Prometheus makes itself for each target. */
const PROMETHEUS_OWN = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped']);
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** Metric names in a PromQL expression: identifiers that are not functions, keywords, labels or durations. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\$\w+/g, '') // Grafana variables ($__rate_interval)
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // label lists
    .replace(/(^|[^\w:])\d[\w.]*/g, '$1'); // numbers (1e6, 0.99)
  const names = [...bare.matchAll(/([A-Za-z_:][\w:]*)\s*(\()?/g)]
    .filter((m) => !m[2] && !KEYWORDS.has(m[1]!.toLowerCase()))
    .map((m) => m[1]!);
  return [...new Set(names)];
}

/** The `expr:` of every rule in a Prometheus rules file (one-line or `|` block). */
function ruleExprs(yml: string): string[] {
  const lines = yml.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const m = line.match(/^(\s*)expr:\s*(.*)$/);
    if (!m) return;
    if (m[2] !== '|') return void out.push(m[2]!);
    const block: string[] = [];
    for (
      let j = i + 1;
      j < lines.length && (lines[j]!.trim() === '' || lines[j]!.search(/\S/) > m[1]!.length);
      j++
    )
      block.push(lines[j]!);
    out.push(block.join('\n'));
  });
  return out;
}

function dashboardExprs(): { panel: string; expr: string }[] {
  const dash = JSON.parse(readFileSync(path.join(DEPLOY, 'grafana/showtix.json'), 'utf8')) as {
    panels: { title: string; type: string; targets?: { expr: string }[] }[];
  };
  return dash.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
}

let env: TestEnv;
let exported: Set<string>;

beforeAll(async () => {
  env = await createTestEnv();
  const worker = await startWorker(
    { ...env.config, env: 'development', metricsPort: 0 },
    { log: env.deps.log },
  );
  try {
    const text = await (await fetch(`${worker.metricsUrl}/metrics`)).text();
    exported = new Set(
      [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name!],
      ),
    );
  } finally {
    await worker.close();
  }
});
afterAll(() => env.close());

it('reads metric names out of PromQL', () => {
  expect(
    metricNames(
      'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{job="showtix",status=~"5.."}[$__rate_interval]))) > 0.5 and on (job) up == 1',
    ),
  ).toEqual(['http_request_duration_seconds_bucket', 'up']);
  expect(
    metricNames('time() - max by (job) (reconcile_last_finished_timestamp_seconds) > 36 * 3600'),
  ).toEqual(['reconcile_last_finished_timestamp_seconds']);
});

it('every expression of the Grafana dashboard names metrics the server exports', () => {
  const exprs = dashboardExprs();
  expect(exprs.length).toBeGreaterThan(20);
  const missing = exprs.flatMap(({ panel, expr }) =>
    metricNames(expr)
      .filter((n) => !exported.has(n) && !PROMETHEUS_OWN.has(n))
      .map((n) => `${panel}: ${n}`),
  );
  expect(missing).toEqual([]);
});

it('every alert rule names metrics the server exports', () => {
  const exprs = ruleExprs(readFileSync(path.join(DEPLOY, 'prometheus/alerts.yml'), 'utf8'));
  expect(exprs.length).toBeGreaterThanOrEqual(15);
  const missing = exprs.flatMap((e) =>
    metricNames(e).filter((n) => !exported.has(n) && !PROMETHEUS_OWN.has(n)),
  );
  expect(missing).toEqual([]);
});

it('the dashboard covers every stage the issue names', () => {
  const used = new Set(dashboardExprs().flatMap(({ expr }) => metricNames(expr)));
  for (const stage of [
    'purchases_total',
    'holds_active',
    'wechat_notifications_total',
    'payments_total',
    'ticket_issue_lag_seconds_bucket',
    'outbox_lag_seconds',
    'dead_letters',
    'refunds',
    'queue_waiting',
    'queue_admitted_total',
    'reconcile_unmatched',
    'inventory_reconcile_difference',
  ])
    expect(used).toContain(stage);
});
