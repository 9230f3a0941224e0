/**
 * The ticket code of shared-types (device-bound rotating codes, offline verification), imported
 * file by file: the package index would load it without the text-encoding polyfill, which must
 * run first in WeChat (no TextEncoder, TextDecoder or atob there). Keep this import order.
 */
import '../utils/text-encoding';

export {
  CODE_STEP_MS,
  bytesToB64url,
  deviceKeyFromSeed,
  makeCode,
  manualDigits,
  manualKeyOf,
  parseCode,
  verifyOffline,
} from '@showtix/shared-types/dist/ticket-code';
export type { OfflineBundle, OfflineVerdict } from '@showtix/shared-types/dist/ticket-code';
