/**
 * Byte encodings of the ticket code: base64url (bindings, keys, hashes) and base45 (RFC 9285,
 * the code in the QR: its alphabet is the QR alphanumeric mode's, 5.5 bits a character against
 * 8 in byte mode). Plain loops: no Buffer in the mini-program, no atob/btoa needed.
 */
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B45 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

export function bytesToB64url(b: Uint8Array): string {
  let s = '';
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    s += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  if (i < b.length) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8);
    s += B64[n >> 18]! + B64[(n >> 12) & 63]!;
    if (i + 1 < b.length) s += B64[(n >> 6) & 63]!;
  }
  return s;
}

export function b64urlToBytes(s: string): Uint8Array {
  const clean = s.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let j = 0;
  for (const ch of clean) {
    const v = B64.indexOf(ch);
    if (v < 0) throw new Error('invalid base64url');
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, j);
}

export function toBase45(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 2) {
    if (i + 1 < b.length) {
      let n = b[i]! * 256 + b[i + 1]!;
      for (let k = 0; k < 3; k++) {
        s += B45[n % 45]!;
        n = Math.floor(n / 45);
      }
    } else s += B45[b[i]! % 45]! + B45[Math.floor(b[i]! / 45)]!;
  }
  return s;
}

export function fromBase45(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 3) {
    const chunk = s.slice(i, i + 3);
    if (chunk.length < 2) throw new Error('invalid base45');
    let n = 0;
    for (let k = chunk.length - 1; k >= 0; k--) {
      const v = B45.indexOf(chunk[k]!);
      if (v < 0) throw new Error('invalid base45');
      n = n * 45 + v;
    }
    if (chunk.length === 3) {
      if (n > 0xffff) throw new Error('invalid base45');
      out.push(n >> 8, n & 0xff);
    } else {
      if (n > 0xff) throw new Error('invalid base45');
      out.push(n);
    }
  }
  return new Uint8Array(out);
}
