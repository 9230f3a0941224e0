import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every source file of the app (pages, components, services...). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : /\.tsx?$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

// See src/services/shared.ts: the package index loads the ticket-code signer, which needs
// TextEncoder (absent in WeChat) as soon as it is imported.
it('takes runtime values from shared-types module by module, never from its index', () => {
  const offenders = sources(path.join(__dirname, '../../src')).filter((f) =>
    /^import\s+(?!type\b)[^;]*from\s+'@showtix\/shared-types'/m.test(readFileSync(f, 'utf8')),
  );
  expect(offenders.map((f) => path.relative(path.join(__dirname, '../..'), f))).toEqual([]);
});
