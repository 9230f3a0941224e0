// Pages and services run as the H5 build does (DOM canvas, same-origin API).
process.env.TARO_ENV = 'h5';

// jsdom has no PointerEvent; the H5 seat map listens to pointer events.
if (typeof window !== 'undefined' && typeof window.PointerEvent === 'undefined') {
  class PointerEventShim extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'touch';
    }
  }
  (window as unknown as { PointerEvent: unknown }).PointerEvent = PointerEventShim;
}

// jsdom has no TextEncoder/TextDecoder; shared-types' ticket codes (@noble/curves) need them
// when the module loads.
import { TextDecoder, TextEncoder } from 'node:util';

if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
