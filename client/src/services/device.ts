import { randomId } from '../utils/random';
import { KEYS, readString, write } from './storage';

let cached: string | undefined;

/**
 * This phone's random id, made once and kept in storage; every request carries it as
 * X-Device-Id (the server's per-device rate limits and many-accounts-per-device flags).
 */
export function deviceId(): string {
  if (cached) return cached;
  let id = readString(KEYS.deviceId);
  if (!id || !/^[\w-]{8,64}$/.test(id)) {
    id = randomId('dev');
    try {
      write(KEYS.deviceId, id);
    } catch {
      // storage full or unavailable: the id lives as long as the app
    }
  }
  cached = id;
  return id;
}

/** Tests: forget the id held in memory (storage is theirs to clear). */
export function resetDeviceId(): void {
  cached = undefined;
}
