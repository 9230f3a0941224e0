// Debian packages the tests need: Chromium (Playwright drives it; browsers cannot be
// downloaded here), CJK fonts (without them Chinese text renders as boxes in screenshots) and
// nginx (the proxy test runs the server behind deploy/nginx/showtix.conf.template), redis-server
// (the Cluster suite and the chaos run start their own), prometheus (promtool tests the alert
// rules; scripts/prometheus.mjs runs the server for the cluster topology).
import { existsSync } from 'node:fs';
import { run, tryRun } from './lib.mjs';

const PACKAGES = [
  { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  { pkg: 'nginx-light', present: () => existsSync('/usr/sbin/nginx') },
  // The Redis Cluster suite and the chaos run start redis-server processes of their own.
  { pkg: 'redis-server', present: () => existsSync('/usr/bin/redis-server') },
  // promtool (alert rule tests) and the Prometheus of the cluster topology; --no-install-recommends
  // keeps node-exporter and ~30 other packages out.
  { pkg: 'prometheus', present: () => existsSync('/usr/bin/promtool') && existsSync('/usr/bin/prometheus') },
  {
    pkg: 'fonts-noto-cjk',
    present: () =>
      tryRun('fc-list :lang=zh | grep -q .') ||
      existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'),
  },
];

export function ensureSystemPackages() {
  const missing = PACKAGES.filter((p) => !p.present()).map((p) => p.pkg);
  if (missing.length === 0) return;
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  run(`${sudo}apt-get update -qq`);
  run(
    `${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) ensureSystemPackages();
