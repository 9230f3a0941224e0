import type { Logger } from 'pino';

export interface JobSpec {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
}

/**
 * Runs each job on its interval, never overlapping itself. Every job is safe to run on several
 * instances at once (conditional updates), so there is no leader election.
 */
export class Scheduler {
  private timers = new Map<string, NodeJS.Timeout>();
  private running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly log: Logger) {}

  start(jobs: JobSpec[]): void {
    for (const job of jobs) this.schedule(job);
  }

  private schedule(job: JobSpec): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      const p = job
        .run()
        .catch((err) => this.log.error({ err, job: job.name }, 'job failed'))
        .finally(() => {
          this.running.delete(p);
          this.schedule(job);
        });
      this.running.add(p);
    }, job.intervalMs);
    this.timers.set(job.name, timer);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    await Promise.all([...this.running]);
  }
}
