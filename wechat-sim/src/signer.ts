import { randomInt } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { LoadedKeys } from './keys';
import { AUTH_SCHEME, randomHex, responseMessage, rsaSign } from './wxcrypto';
import { nowSeconds } from './time';

/**
 * certificate: sign with the platform certificate key (Wechatpay-Serial = certificate serial);
 * publicKey: sign with the WeChat Pay public-key-mode key (Wechatpay-Serial = PUB_KEY_ID_...);
 * mixed: pick one at random per message, as WeChat does while a merchant switches modes.
 */
export type KeyMode = 'certificate' | 'publicKey' | 'mixed';
export type SigningMode = Exclude<KeyMode, 'mixed'>;

export interface SignOptions {
  mode?: SigningMode;
  timestamp?: number | string;
  nonce?: string;
  /** Use this signature verbatim (e.g. a WECHATPAY/SIGNTEST/ probe or a forged one). */
  signature?: string;
  serial?: string;
}

export class Signer {
  constructor(
    private readonly keys: LoadedKeys,
    private readonly keyMode: KeyMode,
  ) {}

  pick(forced?: SigningMode): { mode: SigningMode; serial: string; key: KeyObject } {
    const mode =
      forced ?? (this.keyMode === 'mixed' ? (randomInt(2) ? 'publicKey' : 'certificate') : this.keyMode);
    return mode === 'certificate'
      ? { mode, serial: this.keys.platformSerial, key: this.keys.platformPrivateKey }
      : { mode, serial: this.keys.publicKeyId, key: this.keys.publicKeyModePrivateKey };
  }

  /** Wechatpay-* headers for a response or notification body (exact bytes as sent). */
  headers(body: string, opts: SignOptions = {}): Record<string, string> {
    const { serial, key } = this.pick(opts.mode);
    const timestamp = String(opts.timestamp ?? nowSeconds());
    const nonce = opts.nonce ?? randomHex(32);
    return {
      'Wechatpay-Serial': opts.serial ?? serial,
      'Wechatpay-Signature': opts.signature ?? rsaSign(key, responseMessage(timestamp, nonce, body)),
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature-Type': AUTH_SCHEME,
    };
  }
}
