/** A deploy/nginx template with LISTEN_PORT and the named placeholders filled in. */
export function site(template: string, port: number, values: Record<string, string>): string;
/** The cluster template's site on 127.0.0.1:port in front of `upstreams` (host:port each). */
export function clusterSite(port: number, upstreams: string[]): string;
/** Lays out an nginx prefix for `siteConf`; answers nginx's arguments for it. */
export function layOut(prefix: string, siteConf: string, workerConnections: number): string[];
/** nginx in the foreground for `siteConf` on 127.0.0.1:port, laid out in `prefix`, once it accepts connections. */
export function startNginx(
  prefix: string,
  siteConf: string,
  port: number,
  workerConnections?: number,
): Promise<{ child: import('node:child_process').ChildProcess; url: string; close(): Promise<void> }>;
/** Throws unless every folder above `prefix` lets nginx's workers (nobody, when started as root) through. */
export function workersReach(prefix: string, isRoot?: boolean): void;
