import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clusterSite, site as siteFrom, startNginx as runNginx } from '../../../scripts/lib/nginx';
import { freePort } from './pay-env';

export interface Nginx {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A real nginx (Debian's, scripts/system-packages.mjs installs it) in front of `upstream`, with
 * the deployment template deploy/nginx/showtix.conf.template (or, for a list of upstreams,
 * showtix-cluster.conf.template) as it is, its placeholders filled in. Its own prefix and port,
 * in the foreground as this process's child; close() stops it and removes the prefix.
 */
export async function startNginx(upstream: string | string[]): Promise<Nginx> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'showtix-nginx-'));
  // Several upstreams: the cluster template, filled in as scripts/cluster.mjs fills it.
  const site = Array.isArray(upstream)
    ? clusterSite(port, upstream)
    : siteFrom('showtix.conf.template', port, { SHOWTIX_UPSTREAM: upstream });
  const removePrefix = () => rmSync(prefix, { recursive: true, force: true });
  const nginx = await runNginx(prefix, site, port).catch((err: unknown) => {
    removePrefix();
    throw err;
  });
  return {
    url: nginx.url,
    port,
    async close() {
      await nginx.close();
      removePrefix();
    },
  };
}
