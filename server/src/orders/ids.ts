/**
 * Time-ordered 63-bit ids made by the server, so a batch can insert orders and their items in
 * one statement each without asking MySQL for AUTO_INCREMENT values:
 * 41 bits of milliseconds since 2024-01-01 | 10 bits node | 12 bits sequence.
 * Each instance takes its node number from a Redis counter at start-up.
 */
const EPOCH_MS = Date.UTC(2024, 0, 1);
const SEQ_BITS = 12n;
const NODE_BITS = 10n;
const SEQ_MAX = (1 << Number(SEQ_BITS)) - 1;

export class IdGenerator {
  private lastMs = 0;
  private seq = 0;
  private readonly node: bigint;

  constructor(node: number) {
    this.node = BigInt(node & ((1 << Number(NODE_BITS)) - 1));
  }

  next(nowMs: number = Date.now()): string {
    let ms = Math.max(nowMs, this.lastMs);
    if (ms === this.lastMs) {
      this.seq++;
      if (this.seq > SEQ_MAX) {
        ms++; // borrow from the future rather than wait: ids stay unique and ordered
        this.seq = 0;
      }
    } else {
      this.seq = 0;
    }
    this.lastMs = ms;
    return (
      (BigInt(ms - EPOCH_MS) << (NODE_BITS + SEQ_BITS)) |
      (this.node << SEQ_BITS) |
      BigInt(this.seq)
    ).toString();
  }
}

/** The order number shown to people and sent to WeChat: its Beijing date, then the id. */
export function orderNoFor(id: string, createdAt: Date): string {
  const beijing = new Date(createdAt.getTime() + 8 * 3600_000);
  const ymd = beijing.toISOString().slice(2, 10).replace(/-/g, '');
  return `${ymd}${id}`;
}
