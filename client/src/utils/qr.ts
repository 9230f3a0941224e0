// The core encoder only: qrcode's browser/node entry points pull in canvas and PNG code that
// neither the mini-program nor this module needs.
import QRCode from 'qrcode/lib/core/qrcode';

export interface QrMatrix {
  size: number;
  /** Row-major, 1 = dark module. */
  dark: (x: number, y: number) => boolean;
}

export function qrMatrix(text: string): QrMatrix {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  return { size, dark: (x, y) => data[y * size + x] === 1 };
}

/**
 * The code as an SVG path (one "h" run per horizontal stretch of dark modules), with the
 * standard 4-module quiet zone. Small enough for a data: URI.
 */
export function qrSvg(text: string, fg = '#111111', bg = '#ffffff'): string {
  const m = qrMatrix(text);
  const q = 4;
  const n = m.size + q * 2;
  let d = '';
  for (let y = 0; y < m.size; y++) {
    let x = 0;
    while (x < m.size) {
      if (!m.dark(x, y)) {
        x++;
        continue;
      }
      const start = x;
      while (x < m.size && m.dark(x, y)) x++;
      d += `M${start + q} ${y + q}h${x - start}v1h${start - x}z`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges"><rect width="${n}" height="${n}" fill="${bg}"/><path d="${d}" fill="${fg}"/></svg>`;
}

export function qrDataUri(text: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(text))}`;
}
