import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { maskIdNumber, maskName, maskPhone, normalizeIdNumber } from '@showtix/shared-types';

/**
 * Attendee identity at rest: names and ID numbers encrypted with AES-256-GCM (random IV, tag
 * checked on read), masked copies for display, and a keyed hash (HMAC-SHA256) of the normalised
 * number that finds "the same ID" across orders and accounts without storing it in the clear.
 */
export class IdentityVault {
  private readonly encKey: Buffer;
  private readonly hashKey: Buffer;

  constructor(secret: string) {
    // Two independent keys derived from one configured secret.
    this.encKey = createHmac('sha256', secret).update('showtix:id-encryption').digest();
    this.hashKey = createHmac('sha256', secret).update('showtix:id-hash').digest();
  }

  encrypt(text: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
    return `v1.${Buffer.concat([iv, body, c.getAuthTag()]).toString('base64url')}`;
  }

  decrypt(sealed: string): string {
    const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
    const d = createDecipheriv('aes-256-gcm', this.encKey, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString('utf8');
  }

  /**
   * Keyed on the number alone, never on the document type the buyer picked: one-ID-one-ticket,
   * the blocklist and the waiting room must not be sidestepped by calling an ID card number a
   * passport. ("id|" keeps it apart from the phone hashes made with the same key.)
   */
  idHash(idNumber: string): string {
    return createHmac('sha256', this.hashKey)
      .update(`id|${normalizeIdNumber(idNumber)}`)
      .digest('hex');
  }

  /** Everything stored about one attendee; `idHash` when the caller has computed it already. */
  seal(a: { name: string; idType: string; idNumber: string }, idHash = this.idHash(a.idNumber)) {
    return {
      idType: a.idType,
      nameEnc: this.encrypt(a.name),
      idNumberEnc: this.encrypt(a.idNumber),
      nameMasked: maskName(a.name),
      idMasked: maskIdNumber(a.idNumber),
      idHash,
    };
  }

  /** A contact phone's keyed hash: finds its orders by the full number without storing it clear. */
  phoneHash(phone: string): string {
    return createHmac('sha256', this.hashKey).update(`phone|${phone}`).digest('hex');
  }

  /** The order's 联系手机 at rest: encrypted, masked for display, hashed for search. */
  sealPhone(phone: string): SealedPhone {
    return { enc: this.encrypt(phone), masked: maskPhone(phone), hash: this.phoneHash(phone) };
  }
}

export type SealedAttendee = ReturnType<IdentityVault['seal']>;
export interface SealedPhone {
  enc: string;
  masked: string;
  hash: string;
}
