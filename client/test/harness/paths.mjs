import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

/** Repo paths and a require() rooted at the repo, for the server's compiled CommonJS helpers. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DIST_H5 = path.join(ROOT, 'dist/h5');
export const DIST_WEAPP = path.join(ROOT, 'dist/weapp');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts/client');
export const rootRequire = createRequire(path.join(ROOT, 'package.json'));
export const serverDist = (p) => rootRequire(path.join(ROOT, 'server/dist', p));
