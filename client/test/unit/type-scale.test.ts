import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Text size floor (issue 17, accessibility): Taro maps 750 design px to the screen width, so 24
 * design px is 12 px on a 375 px phone, the least any secondary text may be (body text is 28,
 * i.e. 14 px). A style that goes below it fails here with its file and line.
 */
const SRC = path.resolve(__dirname, '../../src');
const FLOOR_DESIGN_PX = 24;

function scssFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return scssFiles(p);
    return p.endsWith('.scss') ? [p] : [];
  });
}

it(`no style sets text smaller than ${FLOOR_DESIGN_PX} design px`, () => {
  const small = scssFiles(SRC).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => [i + 1, /font-size:\s*(\d+(?:\.\d+)?)px/.exec(line)?.[1]] as const)
      .filter(([, px]) => px !== undefined && Number(px) < FLOOR_DESIGN_PX)
      .map(([line, px]) => `${path.relative(SRC, file)}:${line} ${px}px`),
  );
  expect(small).toEqual([]);
});
