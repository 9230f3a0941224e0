// The server's TypeScript sources, for the checks that read them (sql-in-repos.test.mjs,
// writes-by-key.test.mjs). In scripts/lib, not scripts/test: node --test runs every file under a test folder.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const serverSrc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/src');

/** Every .ts file under dir (no declaration files), at any depth. */
export function tsFiles(dir = serverSrc) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}
