/**
 * TextEncoder, TextDecoder (UTF-8) and atob for WeChat's JS engine, which has none of them. The
 * ticket-code module (@noble/curves, @noble/hashes) needs them, some as soon as it loads, so
 * this module must be imported before it (see services/ticket-code.ts). Browsers keep their own.
 */

export function utf8Encode(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

export function utf8Decode(input: ArrayBuffer | ArrayBufferView | undefined): string {
  if (!input) return '';
  const b = ArrayBuffer.isView(input)
    ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
    : new Uint8Array(input);
  let s = '';
  for (let i = 0; i < b.length;) {
    const c = b[i++]!;
    let cp = 0xfffd;
    if (c < 0x80) cp = c;
    else if (c >= 0xc0 && c < 0xe0) cp = ((c & 31) << 6) | (b[i++]! & 63);
    else if (c >= 0xe0 && c < 0xf0) cp = ((c & 15) << 12) | ((b[i++]! & 63) << 6) | (b[i++]! & 63);
    else if (c >= 0xf0)
      cp = ((c & 7) << 18) | ((b[i++]! & 63) << 12) | ((b[i++]! & 63) << 6) | (b[i++]! & 63);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      s += String.fromCharCode(0xd800 + (cp >> 10), 0xdc00 + (cp & 1023));
    } else s += String.fromCharCode(cp);
  }
  return s;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** base64 -> a "binary string" (one char per byte), as window.atob. */
export function base64ToBinary(b64: string): string {
  const clean = b64.replace(/[\s=]/g, '');
  let out = '';
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const v = B64.indexOf(ch);
    if (v < 0) throw new Error('invalid base64');
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((value >> bits) & 0xff);
    }
  }
  return out;
}

class Utf8Encoder {
  readonly encoding = 'utf-8';
  encode(s = ''): Uint8Array {
    return utf8Encode(s);
  }
}

class Utf8Decoder {
  readonly encoding = 'utf-8';
  decode(input?: ArrayBuffer | ArrayBufferView): string {
    return utf8Decode(input);
  }
}

type Host = Record<string, unknown>;

function host(): Host | undefined {
  if (typeof globalThis !== 'undefined') return globalThis as unknown as Host;
  if (typeof self !== 'undefined') return self as unknown as Host;
  return undefined;
}

/** Installs what is missing; idempotent. */
export function installTextEncoding(target: Host | undefined = host()): void {
  if (!target) return;
  if (typeof target.TextEncoder !== 'function') target.TextEncoder = Utf8Encoder;
  if (typeof target.TextDecoder !== 'function') target.TextDecoder = Utf8Decoder;
  if (typeof target.atob !== 'function') target.atob = base64ToBinary;
}

installTextEncoding();
