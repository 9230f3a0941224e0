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

/** The shared-types dist modules a compiled module requires, transitively, and the packages. */
function requiredFrom(file: string, seen = new Set<string>()): Set<string> {
  for (const [, dep] of readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)) {
    const next = dep!.startsWith('.') ? path.join(path.dirname(file), `${dep}.js`) : dep!;
    if (seen.has(next)) continue;
    seen.add(next);
    if (dep!.startsWith('.')) requiredFrom(next, seen);
  }
  return seen;
}

// zod is about 200 KB of the H5 start bundle: the modules every page loads take plain constants
// from shared-types; the schemas come from services/schemas.ts, imported only where input is checked.
it('loads no zod from the modules every page shares (services/shared.ts, utils/subscribe.ts)', () => {
  const dist = path.dirname(require.resolve('@showtix/shared-types/dist/errors'));
  const files = ['src/services/shared.ts', 'src/utils/subscribe.ts'].flatMap((f) =>
    [
      ...readFileSync(path.join(__dirname, '../..', f), 'utf8').matchAll(
        /'@showtix\/shared-types\/dist\/([\w-]+)'/g,
      ),
    ].map((m) => path.join(dist, `${m[1]}.js`)),
  );
  expect(files.length).toBeGreaterThan(5);
  const withZod = files.filter((f) => requiredFrom(f).has('zod'));
  expect(withZod.map((f) => path.basename(f))).toEqual([]);
});
