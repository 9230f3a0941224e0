import { appError } from '../errors';

/**
 * Time-ordered 63-bit ids made by the server, so a batch can insert orders and their items in
 * one statement each without asking MySQL for AUTO_INCREMENT values:
 * 41 bits of milliseconds since 2024-01-01 | 10 bits node | 12 bits sequence.
 * Unique because no two live instances share a node number: each leases one in MySQL
 * (id-lease.ts), and a node's new holder starts above every millisecond its old holder used.
 */
const EPOCH_MS = Date.UTC(2024, 0, 1);
const SEQ_BITS = 12n;
const NODE_BITS = 10n;
const SEQ_MAX = (1 << Number(SEQ_BITS)) - 1;
export const NODE_COUNT = 1 << Number(NODE_BITS);

/** Where a generator gets its node number: undefined while it holds no valid lease. */
export interface NodeSource {
  current(): { node: number; floorMs: number } | undefined;
}

export class IdGenerator {
  private lastMs = 0;
  private seq = 0;
  private node = -1;

  constructor(private readonly source: NodeSource) {}

  /** A generator with a node of its own for good (tools and tests that run alone). */
  static fixed(node: number): IdGenerator {
    return new IdGenerator({ current: () => ({ node: node % NODE_COUNT, floorMs: 0 }) });
  }

  /** The highest millisecond used so far: reported to the lease so a later holder starts above it. */
  get highestMs(): number {
    return this.lastMs;
  }

  next(nowMs: number = Date.now()): string {
    const lease = this.source.current();
    // No valid lease: another instance may hold this node by now, so no id can be promised unique.
    if (!lease) throw appError('SERVICE_UNAVAILABLE');
    if (lease.node !== this.node) {
      // A node new to this generator: only milliseconds above what its earlier holders used.
      this.node = lease.node;
      this.lastMs = Math.max(this.lastMs, lease.floorMs + 1);
      this.seq = -1;
    }
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
      (BigInt(this.node) << SEQ_BITS) |
      BigInt(this.seq)
    ).toString();
  }
}

/** The order number shown to people and sent to WeChat: its Beijing date, then the id. */
/** When an order id was made (its first bits are milliseconds since EPOCH_MS). */
export function idTimeMs(id: string): number {
  return Number(BigInt(id) >> (NODE_BITS + SEQ_BITS)) + EPOCH_MS;
}

export function orderNoFor(id: string, createdAt: Date): string {
  const beijing = new Date(createdAt.getTime() + 8 * 3600_000);
  const ymd = beijing.toISOString().slice(2, 10).replace(/-/g, '');
  return `${ymd}${id}`;
}
