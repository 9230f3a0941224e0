import { createHmac, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

// PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Ed25519 keys that sign ticket QR codes, by key id. Each key is derived from one configured
 * secret and its id, so nothing has to be stored; rotating means adding a new id in front
 * (it signs from then on) and keeping the old ids while their tickets are in circulation.
 */
export class TicketKeys {
  private readonly keys = new Map<string, { priv: KeyObject; pub: KeyObject; raw: Buffer }>();
  readonly activeKid: string;
  private readonly macKey: Buffer;

  constructor(secret: string, kids: string[]) {
    this.macKey = createHmac('sha256', secret).update('showtix:ticket-mac').digest();
    if (kids.length === 0) throw new Error('at least one ticket key id is required');
    for (const kid of kids) {
      const seed = createHmac('sha256', secret).update(`showtix:ticket-key:${kid}`).digest();
      const priv = createPrivateKey({
        key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
        format: 'der',
        type: 'pkcs8',
      });
      const pub = createPublicKey(priv);
      const raw = pub.export({ format: 'der', type: 'spki' }).subarray(-32);
      this.keys.set(kid, { priv, pub, raw });
    }
    this.activeKid = kids[0]!;
  }

  sign(message: string): string {
    return sign(null, Buffer.from(message), this.keys.get(this.activeKid)!.priv).toString('base64url');
  }

  /** The server's signature over a binding (see ticket-code.ts), by the active key. */
  signBytes(bytes: Uint8Array): Uint8Array {
    return new Uint8Array(sign(null, bytes, this.keys.get(this.activeKid)!.priv));
  }

  /**
   * A keyed hash under a key only the server holds (derived from the ticket key secret), for
   * tokens the server hands out and checks itself (offline bundle tokens, bundle hash keys).
   */
  mac(label: string, message: string): string {
    return createHmac('sha256', this.macKey).update(`${label}\n${message}`).digest('base64url');
  }

  /** Raw 32-byte public keys by id (base64url), for verification online and on staff devices. */
  publicKeys(): Record<string, string> {
    return Object.fromEntries([...this.keys].map(([kid, k]) => [kid, k.raw.toString('base64url')]));
  }

  publicKey(kid: string): Uint8Array | undefined {
    return this.keys.get(kid)?.raw;
  }
}
