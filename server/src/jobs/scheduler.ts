import type { Logger } from 'pino';
import type { Leadership } from './leader';

export interface JobSpec {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  /** Runs on every instance (its own share of work), not only on the leader. */
  everyInstance?: boolean;
}

/**
 * Runs each job on its interval, never overlapping itself. With a leader lease, jobs run only on
 * the instance that holds it (unless everyInstance), and move when that instance dies. Every job
 * is still safe to run on several instances at once (conditional updates): the lease saves
 * duplicate work, it is not what keeps the data right.
 */
export class Scheduler {
  private timers = new Map<string, NodeJS.Timeout>();
  private running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly log: Logger,
    private readonly leader?: Leadership,
    /** Told how each run ended (the job_runs_total metric); skipped ticks are not runs. */
    private readonly onRun: (job: string, ok: boolean) => void = () => undefined,
  ) {}

  start(jobs: JobSpec[]): void {
    this.leader?.start();
    for (const job of jobs) this.schedule(job);
  }

  /** False while another instance leads: the job skips this tick. */
  private mayRun(job: JobSpec): boolean {
    return job.everyInstance === true || !this.leader || this.leader.isLeader;
  }

  private schedule(job: JobSpec): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      const run = this.mayRun(job);
      const p = (run ? job.run().then(() => this.onRun(job.name, true)) : Promise.resolve())
        .catch((err) => {
          this.onRun(job.name, false);
          this.log.error({ err, job: job.name }, 'job failed');
        })
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
    await this.leader?.stop();
  }
}
