/**
 * The ticket QR code of shared-types (rotating code, offline verification), imported file by
 * file: the package index would load it without the text-encoding polyfill, which must run
 * first in WeChat (no TextEncoder, TextDecoder or atob there). Keep this import order.
 */
import '../utils/text-encoding';

export { CODE_STEP_MS, currentQr, parseQr, verifyOffline } from '@showtix/shared-types/dist/ticket-code';
export type { OfflineBundle, OfflineVerdict } from '@showtix/shared-types/dist/ticket-code';
