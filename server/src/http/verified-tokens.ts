import { setBounded } from '../bounded-map';

/** What a session token's signature check established: whom it names, and its validity window. */
export interface VerifiedClaims<P> {
  /** The principal the token names, frozen: every request with the token is given this object. */
  principal: P;
  /** The token is valid from nbfMs (0: no nbf claim) through expMs inclusive, as fast-jwt checks it. */
  nbfMs: number;
  expMs: number;
}

/**
 * Tokens whose signature was already checked, with their claims: a fan in the waiting room polls
 * with the same token every few seconds, and the HMAC, base64 and JSON work of a verification
 * was about a tenth of a poll's CPU in the profile (a Map lookup of the token is ~2% of that).
 * Only tokens that verified are kept, keyed by the whole token string, so nothing unsigned can
 * get in; an entry answers only inside the token's own nbf/exp window (checked on every hit
 * against the same clock fast-jwt uses), so an expired token is still refused. Bounded: at `max`
 * entries the oldest are dropped, a batch at a time (setBounded; about 300 bytes an entry).
 */
export class VerifiedTokens<P> {
  private readonly entries = new Map<string, VerifiedClaims<P>>();

  constructor(private readonly max: number) {}

  /** The claims of a token verified before, if it is still inside its validity window at nowMs. */
  get(token: string, nowMs: number): VerifiedClaims<P> | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (nowMs > hit.expMs) {
      this.entries.delete(token);
      return undefined;
    }
    return nowMs >= hit.nbfMs ? hit : undefined;
  }

  set(token: string, claims: VerifiedClaims<P>): void {
    setBounded(this.entries, token, claims, this.max);
  }

  get size(): number {
    return this.entries.size;
  }
}
