import type { Logger } from 'pino';
import { inTransaction, type Db } from '../db/pool';
import type { Broker } from './broker';
import { claimDue, markFailed, markSent } from './repo';

const BATCH = 200;

/**
 * Moves committed outbox rows to RabbitMQ and marks them sent only once the broker confirmed
 * them. If RabbitMQ is down the rows stay pending (with backoff) and go out when it is back;
 * a crash after publishing and before marking sends a row twice, which consumers tolerate.
 */
export class OutboxRelay {
  private running: Promise<number> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly broker: Broker,
    private readonly log: Logger,
  ) {}

  /** Runs a pass now (after a commit that enqueued something), or right after the current one. */
  nudge(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runOnce().catch((err) => this.log.error({ err }, 'outbox relay failed'));
  }

  runOnce(): Promise<number> {
    if (this.closed) return Promise.resolve(0);
    if (this.running) return this.running;
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
    return this.running;
  }

  /** No new passes; waits for the current one. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running?.catch(() => 0);
  }

  private async pass(): Promise<number> {
    let total = 0;
    for (;;) {
      const sent = await inTransaction(this.db, async (conn) => {
        const rows = await claimDue(conn, BATCH);
        const ok: string[] = [];
        const failed: { id: string; error: string }[] = [];
        await Promise.all(
          rows.map(async (r) => {
            try {
              await this.broker.publish(r.topic, `outbox-${r.id}`, JSON.parse(r.payload));
              ok.push(r.id);
            } catch (err) {
              failed.push({ id: r.id, error: (err as Error).message });
            }
          }),
        );
        await markSent(conn, ok);
        await markFailed(conn, failed);
        return { ok: ok.length, claimed: rows.length };
      });
      total += sent.ok;
      if (sent.claimed < BATCH || sent.ok === 0) return total;
    }
  }
}
