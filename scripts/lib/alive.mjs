// Whether a process is still running: the scripts that start and stop services (the Redis
// Cluster, the MariaDB replica) and the tests that check a stopped process is gone ask it alike.
import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a running process: signal 0 reaches it, and it is not a zombie (exited, its
 * exit status not yet collected by its parent: signal 0 still reaches it, but it runs nothing).
 */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
