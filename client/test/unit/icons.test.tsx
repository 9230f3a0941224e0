import { render } from '@testing-library/react';
import Icon from '../../src/components/icon/Icon';
import { base64Ascii, ICON_NAMES, iconSrc, iconSvg } from '../../src/components/icon/icons';

it('encodes like btoa (WeChat has none), so the data URI is the SVG itself', () => {
  for (const s of ['', 'a', 'ab', 'abc', 'abcd', iconSvg('check', '#17171f')])
    expect(base64Ascii(s)).toBe(Buffer.from(s, 'ascii').toString('base64'));
  for (const name of ICON_NAMES) {
    const src = iconSrc(name, '#d81b4f');
    expect(src.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(src.split(',')[1]!, 'base64').toString('ascii');
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 24 24"[^>]*stroke="#d81b4f"/,
    );
    expect(svg.endsWith('</svg>')).toBe(true);
  }
});

it('keeps every icon small: the whole set under 12 KB of data URIs', () => {
  const bytes = ICON_NAMES.reduce((n, name) => n + iconSrc(name, '#17171f').length, 0);
  expect(bytes).toBeLessThan(12 * 1024);
});

it('a decorative icon is hidden from screen readers; a labelled one is an image with that name', () => {
  const { container } = render(
    <>
      <Icon name="search" />
      <Icon name="share" label="分享" />
    </>,
  );
  const [plain, named] = Array.from(container.querySelectorAll('img'));
  expect(plain!.getAttribute('aria-hidden')).toBe('true');
  expect(plain!.getAttribute('alt')).toBe('');
  expect(named!.getAttribute('alt')).toBe('分享');
  expect(named!.getAttribute('aria-hidden')).toBeNull();
});

it('no page draws a Unicode glyph as an icon any more', () => {
  // The glyphs the walk-through found (issue 17 #14); staff pages are the gate's own sub-package.
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const root = path.resolve(__dirname, '../../src');
  const files = (dir: string): string[] =>
    fs.readdirSync(dir).flatMap((n) => {
      const p = path.join(dir, n);
      if (fs.statSync(p).isDirectory()) return p.includes('packages') ? [] : files(p);
      return p.endsWith('.tsx') ? [p] : [];
    });
  const glyphs = /[♪▤≡☺›▾✓✕🎫−]/u;
  const found = files(root).filter((f) => glyphs.test(fs.readFileSync(f, 'utf8')));
  expect(found.map((f) => path.relative(root, f))).toEqual([]);
});
