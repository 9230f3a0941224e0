/**
 * Every Redis key name is built here. All keys of one show session share the hash tag
 * {s:<id>}, so the scripts that touch several of them stay valid on Redis Cluster.
 */
export interface SessionKeys {
  meta: string;
  seats: string;
  users: string;
  orders: string;
  pending: string;
  idem: string;
  zslots: string;
  rebuildLock: string;
  /** Real-name attendees' ID hashes -> the live order holding them. */
  ids: string;
  /** An admission token's used-up marker (jti from the signed token; '-' when none). */
  admission(jti: string): string;
  /** The waiting room: see queue/keys in the queue scripts. */
  queue: { line: string; pre: string; frozen: string; state: string; ids: string; turns: string };
}

export class Keys {
  constructor(readonly prefix: string) {}

  session(sessionId: string): SessionKeys {
    const tag = `${this.prefix}{s:${sessionId}}`;
    return {
      meta: `${tag}:meta`,
      seats: `${tag}:seats`,
      users: `${tag}:users`,
      orders: `${tag}:orders`,
      pending: `${tag}:pending`,
      idem: `${tag}:idem`,
      zslots: `${tag}:zslots`,
      rebuildLock: `${tag}:rebuild`,
      ids: `${tag}:ids`,
      admission: (jti: string) => `${tag}:adm:${jti || '-'}`,
      queue: {
        line: `${tag}:q:line`,
        pre: `${tag}:q:pre`,
        frozen: `${tag}:q:frozen`,
        state: `${tag}:q:state`,
        ids: `${tag}:q:ids`,
        turns: `${tag}:q:turns`,
      },
    };
  }

  /** Counter that hands each server instance its own id-generator node number. */
  nodeSeq(): string {
    return `${this.prefix}node-seq`;
  }

  /** Match pattern for every key this deployment owns (tests delete by it). */
  all(): string {
    return `${this.prefix}*`;
  }
}
