/** The core encoder of the qrcode package (typed by @types/qrcode for the main entry only). */
declare module 'qrcode/lib/core/qrcode' {
  import type { QRCode, QRCodeOptions } from 'qrcode';
  const core: { create(text: string, options?: QRCodeOptions): QRCode };
  export default core;
}
