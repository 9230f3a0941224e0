// npm start: the whole product on one machine. Installs what is missing, makes sure MariaDB,
// Redis and RabbitMQ answer, builds everything, migrates, seeds a demo show, then runs the
// WeChat simulator (127.0.0.1:3100) and the server (127.0.0.1:3000, with the fan's H5 app at /
// and the admin page at /admin/) until Ctrl-C.
import { spawn } from 'node:child_process';
import { ensureInstall, root, run, serverNodeFlags } from './lib.mjs';
import { ensureServices } from './services.mjs';

const skipBuild = process.argv.includes('--no-build');
const env = { NODE_ENV: 'development', ...process.env };
const port = env.PORT ?? '3000';

ensureInstall();
await ensureServices();
if (!skipBuild) {
  run('npm run build -w shared-types -w wechat-sim -w server');
  run('npm run build -w admin');
  run('npm run build:h5');
}
run('node server/dist/seed/cli.js', { env });

const children = [
  spawn(process.execPath, ['wechat-sim/dist/main.js'], { cwd: root, env, stdio: 'inherit' }),
  spawn(process.execPath, [...serverNodeFlags(), 'server/dist/main.js'], {
    cwd: root,
    env,
    stdio: 'inherit',
  }),
];
console.log(`
  showtix is starting:
    fan app (H5)   http://127.0.0.1:${port}/
    admin page     http://127.0.0.1:${port}/admin/   (development login: admin / showtix-dev-admin, or ADMIN_USERNAME / ADMIN_PASSWORD)
    API            http://127.0.0.1:${port}/api/v1/shows
    WeChat sim     http://127.0.0.1:${env.SIM_PORT ?? 3100}/sim/state
  Ctrl-C stops everything.
`);
let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
};
for (const c of children) c.on('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
