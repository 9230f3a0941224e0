/**
 * Every delayed action of the simulator goes through one TimerSet so that close() can cancel
 * them all: tests must not leave open handles behind.
 */
export class TimerSet {
  private readonly pending = new Set<NodeJS.Timeout>();
  private closed = false;

  after(ms: number, fn: () => void): void {
    if (this.closed) return;
    const handle = setTimeout(
      () => {
        this.pending.delete(handle);
        if (!this.closed) fn();
      },
      Math.max(0, ms),
    );
    this.pending.add(handle);
  }

  /** Resolves after ms, or never if the set is closed first (callers must not rely on it then). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  get size(): number {
    return this.pending.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  clearAll(): void {
    this.closed = true;
    for (const handle of this.pending) clearTimeout(handle);
    this.pending.clear();
  }
}
