/**
 * Every Redis key name is built here. All keys of one show session share the hash tag
 * {s:<id>}, so the scripts, MULTIs and pipelines that touch several of them stay valid on Redis
 * Cluster. The keys outside a session are only ever used one at a time (a script or MULTI on one
 * key): rate limits, risk counters and the global cooldown marker, the job lease and the cache
 * channel. The purchase's own rate counters and cooldown are per session, under its tag (rate,
 * cooldown).
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
  /** A user's hold cooldown in this session (risk/service.ts writes it into every live session). */
  cooldown(userId: string): string;
  /**
   * A purchase-rate counter of one user ('u'), device ('d') or address ('i') in this session;
   * undefined subject: a dummy key the script does not touch (the dimension is not counted).
   */
  rate(dim: 'u' | 'd' | 'i', subject: string | undefined): string;
  /** The same for joins of this session's waiting room (the queueJoin script counts them). */
  joinRate(dim: 'u' | 'd' | 'i', subject: string | undefined): string;
  /** A seat-states snapshot by its version (inventory/seat-delta.ts; short TTL). */
  snapshot(version: string): string;
  /** The waiting room: see queue/keys in the queue scripts. */
  queue: { line: string; pre: string; frozen: string; state: string; ids: string; turns: string };
}

/**
 * Sessions whose key names one Keys remembers. Every poll, join and purchase asks for its
 * session's names, and building them (sixteen strings, five closures) was a tenth of a poll's
 * allocations in a heap profile (issue 14, 2026-12-04); a deployment has at most a few thousand
 * sessions on sale. Past this many the memory starts over, so ids nobody sells cannot grow it.
 */
const SESSIONS_REMEMBERED_MAX = 4096;

/** A session's key names under its hash tag (Keys.session remembers them). */
function sessionKeys(tag: string): SessionKeys {
  return Object.freeze({
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
    cooldown: (userId: string) => `${tag}:cd:${userId}`,
    rate: (dim: 'u' | 'd' | 'i', subject: string | undefined) =>
      subject === undefined ? `${tag}:rl:-` : `${tag}:rl:${dim}:${subject}`,
    joinRate: (dim: 'u' | 'd' | 'i', subject: string | undefined) =>
      subject === undefined ? `${tag}:q:rl:-` : `${tag}:q:rl:${dim}:${subject}`,
    snapshot: (version: string) => `${tag}:snap:${version}`,
    queue: Object.freeze({
      line: `${tag}:q:line`,
      pre: `${tag}:q:pre`,
      frozen: `${tag}:q:frozen`,
      state: `${tag}:q:state`,
      ids: `${tag}:q:ids`,
      turns: `${tag}:q:turns`,
    }),
  });
}

export class Keys {
  private readonly sessions = new Map<string, SessionKeys>();

  constructor(readonly prefix: string) {}

  /** The session's key names; the same frozen object for the same session (SESSIONS_REMEMBERED_MAX). */
  session(sessionId: string): SessionKeys {
    const known = this.sessions.get(sessionId);
    if (known) return known;
    if (this.sessions.size >= SESSIONS_REMEMBERED_MAX) this.sessions.clear();
    const keys = sessionKeys(`${this.prefix}{s:${sessionId}}`);
    this.sessions.set(sessionId, keys);
    return keys;
  }

  /** Lease of the instance that runs the singleton jobs (jobs/leader.ts). */
  jobsLeader(): string {
    return `${this.prefix}jobs-leader`;
  }

  /** Pub/sub channel on which instances tell each other to drop cached entries. */
  cacheChannel(): string {
    return `${this.prefix}cache-invalidate`;
  }

  /** Prefix of a rate limit's keys (rate-limiter-flexible adds the subject): risk/limits.ts. */
  rateLimit(path: string, name: string): string {
    return `${this.prefix}rl:${path}:${name}`;
  }

  /** Prefix of the admin login limiters' keys, per user+address or per address. */
  adminLogin(by: 'user-ip' | 'ip'): string {
    return `${this.prefix}admin-login:${by}`;
  }

  /** A buyer's cooldown after the hold-expire-hold loop (risk/service.ts). */
  cooldown(userId: string): string {
    return `${this.prefix}cooldown:${userId}`;
  }

  /** The accounts seen on one device or ID (risk/service.ts flags many on one). */
  riskSeen(kind: string, subject: string): string {
    return `${this.prefix}seen:${kind}:${subject}`;
  }

  /** Match pattern for every key this deployment owns (tests delete by it). */
  all(): string {
    return `${this.prefix}*`;
  }
}

/**
 * The KEYS of each inventory script, in the order its header lists them. The service and the
 * script tests both call the scripts through these, so the layout is written down once.
 */
export const scriptKeys = {
  /**
   * lockSeats (units: the seats hash) and takeZone (units: the zslots zset). `buyer`: whose
   * cooldown is checked; `rated`: the subjects whose rates are counted (see takeArgs).
   */
  take: (
    k: SessionKeys,
    units: string,
    jti: string,
    buyer = '-',
    rated: { u?: string | undefined; d?: string | undefined; i?: string | undefined } = {},
  ) => [
    k.meta,
    units,
    k.users,
    k.orders,
    k.pending,
    k.idem,
    k.admission(jti),
    k.ids,
    k.cooldown(buyer),
    k.rate('u', rated.u),
    k.rate('d', rated.d),
    k.rate('i', rated.i),
  ],
  confirmOrder: (k: SessionKeys) => [k.meta, k.seats, k.orders, k.pending],
  releaseOrder: (k: SessionKeys, jti: string) => [
    k.meta,
    k.seats,
    k.users,
    k.orders,
    k.pending,
    k.idem,
    k.zslots,
    k.ids,
    k.admission(jti),
  ],
  releaseUnits: (k: SessionKeys) => [k.meta, k.seats, k.users, k.orders, k.pending, k.zslots],
  retakeOrder: (k: SessionKeys) => [k.meta, k.seats, k.users, k.orders, k.pending, k.zslots, k.ids],
  moveAttendee: (k: SessionKeys) => [k.orders, k.ids],
};
