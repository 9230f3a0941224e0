// An nginx prefix of its own for the deployment templates (deploy/nginx): scripts/cluster.mjs and
// the server's jest suites (server/test/helpers/nginx.ts) lay theirs out with these. Plain
// CommonJS and Node built-ins only (types in nginx.d.ts), so both can load it.
const { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { spawn } = require('node:child_process');
const { connect } = require('node:net');
const path = require('node:path');

const TEMPLATES = path.resolve(__dirname, '../../deploy/nginx');

/**
 * Throws unless every folder above `prefix` lets others through. Started as root, nginx runs its
 * workers as nobody, and a folder they cannot enter (a mkdtemp folder, 0700, holding the prefix)
 * failed every read of the catalog's micro-cache with a 500 (open() … Permission denied in the
 * error log) while the rest of the site answered: `npm run cluster` served no show list, session
 * or seat state through nginx from 2026-12-03, when the cache came, to 2026-12-07.
 */
function workersReach(prefix, isRoot = process.getuid?.() === 0) {
  if (!isRoot) return; // the workers run as this user, who reaches the prefix
  for (let dir = path.dirname(path.resolve(prefix)); ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0)
      throw new Error(
        `nginx's workers (nobody) cannot enter ${dir}, above its prefix ${prefix}: chmod it 0755`,
      );
    if (dir === path.dirname(dir)) return;
  }
}

/**
 * Fills a template's placeholders: the listen address (127.0.0.1:port) and, by name, the rest
 * (SHOWTIX_UPSTREAM or SHOWTIX_UPSTREAM_SERVERS).
 */
function site(template, port, values) {
  let text = readFileSync(path.join(TEMPLATES, template), 'utf8');
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`\${${name}}`, value);
  return text.replaceAll('${LISTEN_PORT}', `127.0.0.1:${port}`);
}

/** The cluster template's site on 127.0.0.1:port in front of `upstreams` (host:port each). */
function clusterSite(port, upstreams) {
  const servers = upstreams.map((u) => `server ${u} max_fails=2 fail_timeout=5s;`).join('\n    ');
  return site('showtix-cluster.conf.template', port, { SHOWTIX_UPSTREAM_SERVERS: servers });
}

/**
 * Lays out `prefix`: logs/, the site as showtix.conf (its SHOWTIX_CACHE_DIR: prefix/cache) and
 * a main nginx.conf that includes it (its pid, logs and temp files inside the prefix). Answers
 * nginx's arguments for that prefix; the caller adds '-t' or '-g', 'daemon off;'.
 */
function layOut(prefix, siteConf, workerConnections) {
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  // nginx's workers (not root) write the cache below it: a mkdtemp folder (0700) would stop them.
  chmodSync(prefix, 0o755);
  workersReach(prefix);
  // The templates' micro-cache (the catalog's reads) lives in the prefix too.
  const conf = siteConf.replaceAll('${SHOWTIX_CACHE_DIR}', path.join(prefix, 'cache'));
  writeFileSync(path.join(prefix, 'showtix.conf'), conf);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `  ${t}_temp_path ${prefix}/${t};`)
    .join('\n');
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections ${workerConnections}; }
http {
  access_log off;
${temp}
  include ${prefix}/showtix.conf;
}
`,
  );
  return ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'logs/error.log')];
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port) {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/**
 * Debian's nginx in the foreground as this process's child, `siteConf` (listening on
 * 127.0.0.1:port) laid out in `prefix`; resolves once it accepts connections. close() stops it
 * (the prefix stays the caller's). `child.pid` is the master; its workers serve.
 */
async function startNginx(prefix, siteConf, port, workerConnections = 256) {
  const child = spawn(
    '/usr/sbin/nginx',
    [...layOut(prefix, siteConf, workerConnections), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b.toString()));
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; !(await listening(port)); i++) {
    if (child.exitCode !== null || i > 100) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`nginx did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url: `http://127.0.0.1:${port}`, close };
}

module.exports = { site, clusterSite, layOut, startNginx, workersReach };
