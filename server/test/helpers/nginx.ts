import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './pay-env';

const TEMPLATE = path.resolve(__dirname, '../../../deploy/nginx/showtix.conf.template');
const CLUSTER_TEMPLATE = path.resolve(__dirname, '../../../deploy/nginx/showtix-cluster.conf.template');

export interface Nginx {
  url: string;
  port: number;
  close(): Promise<void>;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/**
 * A real nginx (Debian's, scripts/system-packages.mjs installs it) in front of `upstream`, with
 * the deployment template deploy/nginx/showtix.conf.template (or, for a list of upstreams,
 * showtix-cluster.conf.template) as it is, its two placeholders filled in. Its own prefix and port, in the foreground as this process's child; close() stops it.
 */
export async function startNginx(upstream: string | string[]): Promise<Nginx> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'showtix-nginx-'));
  mkdirSync(path.join(prefix, 'logs'));
  // Several upstreams: the cluster template (deploy/nginx/showtix-cluster.conf.template), with
  // the server lines scripts/cluster.mjs writes.
  const site = Array.isArray(upstream)
    ? readFileSync(CLUSTER_TEMPLATE, 'utf8')
        .replaceAll(
          '${SHOWTIX_UPSTREAM_SERVERS}',
          upstream.map((u) => `server ${u} max_fails=2 fail_timeout=5s;`).join('\n    '),
        )
        .replaceAll('${LISTEN_PORT}', `127.0.0.1:${port}`)
    : readFileSync(TEMPLATE, 'utf8')
        .replaceAll('${SHOWTIX_UPSTREAM}', upstream)
        .replaceAll('${LISTEN_PORT}', `127.0.0.1:${port}`);
  writeFileSync(path.join(prefix, 'showtix.conf'), site);
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/showtix.conf;
}
`,
  );
  const proc: ChildProcess = spawn(
    '/usr/sbin/nginx',
    [
      '-p',
      prefix,
      '-c',
      path.join(prefix, 'nginx.conf'),
      '-e',
      path.join(prefix, 'logs/error.log'),
      '-g',
      'daemon off;',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  proc.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  for (let i = 0; !(await listening(port)); i++) {
    if (proc.exitCode !== null || i > 100) {
      proc.kill('SIGKILL');
      rmSync(prefix, { recursive: true, force: true });
      throw new Error(`nginx did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
