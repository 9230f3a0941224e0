/** The Node.js flags of this process: its command line's and those of its NODE_OPTIONS. */
export function nodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)];
}

/**
 * Whether this Node.js runs AsyncLocalStorage on AsyncContextFrame: the default from Node 24
 * (unless `--no-async-context-frame`), behind `--experimental-async-context-frame` on Node 22.
 * There a request's context costs nothing per promise. Elsewhere (Node 20, Node 22 without the
 * flag) AsyncLocalStorage installs async hooks and every promise of every request pays for them:
 * in a profile of refused purchases, GC fell from 10.4% to 3.7% of the server's samples without
 * them (issue 14, 2026-12-02; README, LOG_REQUEST_CONTEXT).
 */
export function asyncContextIsCheap(nodeVersion: string, flags: readonly string[]): boolean {
  const major = Number(nodeVersion.split('.')[0]);
  if (flags.includes('--no-async-context-frame')) return false;
  return major >= 24 || (major >= 22 && flags.includes('--experimental-async-context-frame'));
}

/** LOG_REQUEST_CONTEXT: on, off, or auto (on where AsyncLocalStorage is cheap). */
export function requestContextOn(setting: 'auto' | 'on' | 'off', env: NodeJS.ProcessEnv): boolean {
  return setting === 'auto' ? asyncContextIsCheap(process.versions.node, nodeFlags(env)) : setting === 'on';
}

/**
 * Whether this Node.js can listen with SO_REUSEPORT (`reusePort` of server.listen: Node 22.12+
 * and 23.1+; the kernel's option exists on Linux, and some BSDs, whose Node refuses it otherwise).
 */
export function canReusePort(nodeVersion: string, platform: NodeJS.Platform = process.platform): boolean {
  const [major, minor] = nodeVersion.split('.').map(Number);
  const node = major >= 23 ? major > 23 || minor >= 1 : major === 22 && minor >= 12;
  return node && ['linux', 'freebsd', 'dragonfly'].includes(platform);
}
