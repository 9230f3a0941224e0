import { bytesToB64url, deviceKeyFromSeed, manualKeyOf } from './ticket-code';
import { readString, write } from './storage';

/**
 * This phone's ticket key: an Ed25519 key generated here, kept in the app's storage and never
 * sent anywhere. The server binds its public half to the fan's tickets; the wallet signs each
 * 20-second step with the private half, so the code keeps rotating offline and after a restart,
 * and nobody without this phone (not the server's API, not a staff phone) can make it.
 */
const KEY = 'showtix.ticketKey';

export interface DeviceKey {
  priv: Uint8Array;
  /** base64url, what the server binds */
  pub: string;
}

function fromSeed(seed: Uint8Array): DeviceKey {
  const k = deviceKeyFromSeed(seed);
  return { priv: k.priv, pub: bytesToB64url(k.pub) };
}

function b64urlSeed(s: string): Uint8Array | undefined {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  if (bin.length !== 32) return undefined;
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** 32 random bytes: WebCrypto in browsers (and Node), wx.getRandomValues in WeChat. */
async function randomSeed(): Promise<Uint8Array> {
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
  if (c?.getRandomValues) return c.getRandomValues(new Uint8Array(32));
  const wx = (globalThis as { wx?: any }).wx;
  if (wx?.getRandomValues)
    return new Promise((resolve, reject) =>
      wx.getRandomValues({
        length: 32,
        success: (r: { randomValues: ArrayBuffer }) => resolve(new Uint8Array(r.randomValues)),
        fail: reject,
      }),
    );
  throw new Error('no secure random source');
}

/** The key stored on this phone, if any (works offline). */
export function storedDeviceKey(): DeviceKey | undefined {
  const s = readString(KEY);
  const seed = s ? b64urlSeed(s) : undefined;
  return seed ? fromSeed(seed) : undefined;
}

/** The stored key, or a new one (generated and stored once). */
export async function deviceKey(): Promise<DeviceKey> {
  const have = storedDeviceKey();
  if (have) return have;
  const seed = await randomSeed();
  write(KEY, bytesToB64url(seed));
  return fromSeed(seed);
}

/** What the bind request sends: the public key and the key of the holder's spoken code. */
export function bindBody(k: DeviceKey, ticketNo: string): { publicKey: string; manualKey: string } {
  return { publicKey: k.pub, manualKey: manualKeyOf(k.priv, ticketNo) };
}
