// npm run test:admin:e2e: builds the admin page, then runs the browser test (server/test/admin/e2e)
// against the real server in headless Chromium. Screenshots land in test-artifacts/admin/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const admin = fileURLToPath(new URL('..', import.meta.url));
const server = fileURLToPath(new URL('../../server', import.meta.url));
const run = (cmd, args, cwd) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npx', ['vite', 'build', '--logLevel', 'warn'], admin);
run('npx', ['jest', '-c', 'test/admin/e2e/jest.e2e.config.js', ...process.argv.slice(2)], server);
