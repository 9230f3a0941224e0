// Installs npm dependencies when they are missing or older than package-lock.json, using only
// Node itself (it runs on a fresh clone, before anything else is installed).
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
if (!fresh) {
  console.log('installing npm dependencies (npm ci) ...');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
