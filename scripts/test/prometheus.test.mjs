// scripts/prometheus.mjs: a real Prometheus (Debian's binary) started from deploy/prometheus as it
// is, scraping the targets it was given (file_sd), with every alert rule loaded; stopped by PID.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { startPrometheus } from '../prometheus.mjs';

const hasPrometheus = spawnSync('prometheus', ['--version']).status === 0;

/** A stand-in for a server process: /metrics in the text format, behind a bearer token. */
function fakeInstance(token) {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') return res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${token}`) return res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end('# TYPE instance_ready gauge\ninstance_ready 1\n# TYPE job_leader gauge\njob_leader 1\n');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function query(url, q) {
  const r = await (await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`)).json();
  return r.data.result;
}

async function until(what, fn, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test(
  'scrapes every target it is given, by role, with the token; loads every alert rule',
  { skip: !hasPrometheus && 'no prometheus binary (apt-get install prometheus)' },
  async () => {
    const token = 'metrics-token-for-the-test-0123';
    const api = await fakeInstance(token);
    const worker = await fakeInstance(token);
    const addr = (s) => `127.0.0.1:${s.address().port}`;
    const prom = await startPrometheus({ api: [addr(api)], workers: [], token, scrapeS: 1 });
    try {
      const up = await until('the API process scraped', async () => {
        const r = await query(prom.url, 'up{job="showtix"}');
        return r.length === 1 && r[0].value[1] === '1' && r;
      });
      assert.equal(up[0].metric.role, 'api');
      // a worker joins: the targets file changes, Prometheus picks it up without a restart
      prom.setTargets({ api: [addr(api)], workers: [addr(worker)] });
      const both = await until(
        'the worker scraped too',
        async () => {
          const r = await query(prom.url, 'sum by (role) (up{job="showtix"})');
          return r.length === 2 && r;
        },
        60_000,
      );
      assert.deepEqual(both.map((r) => r.metric.role).sort(), ['api', 'worker']);
      const rules = await (await fetch(`${prom.url}/api/v1/rules`)).json();
      const alerts = rules.data.groups.flatMap((g) => g.rules).filter((r) => r.type === 'alerting');
      assert.ok(alerts.length >= 15, `alert rules loaded: ${alerts.length}`);
      assert.ok(alerts.some((r) => r.name === 'ShowtixPaidWithoutTickets'));
    } finally {
      await prom.stop();
      api.close();
      worker.close();
    }
    assert.equal(existsSync(prom.dir), false, 'its temp dir is removed');
  },
);
