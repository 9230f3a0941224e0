import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clusterSite, layOut, site as siteFrom } from '../../../scripts/lib/nginx';
import { freePort } from './pay-env';

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
  // Several upstreams: the cluster template, filled in as scripts/cluster.mjs fills it.
  const site = Array.isArray(upstream)
    ? clusterSite(port, upstream)
    : siteFrom('showtix.conf.template', port, { SHOWTIX_UPSTREAM: upstream });
  const proc: ChildProcess = spawn('/usr/sbin/nginx', [...layOut(prefix, site, 256), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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
