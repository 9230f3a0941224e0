// npm run bench [-- --scenario flash-sale|queue|gate|pay|overload ...]: builds the server, then runs the scenario.
import { spawnSync } from 'node:child_process';
import { ensureInstall, root, run } from './lib.mjs';

const argv = process.argv.slice(2);
const i = argv.indexOf('--scenario');
const scenario = i >= 0 ? argv[i + 1] : 'flash-sale';
const rest = i >= 0 ? [...argv.slice(0, i), ...argv.slice(i + 2)] : argv;
const scripts = {
  'flash-sale': 'bench/flash-sale/run.mjs',
  queue: 'bench/queue/run.mjs',
  gate: 'bench/gate/run.mjs',
  pay: 'bench/pay/run.mjs',
  overload: 'bench/overload/run.mjs',
};
if (!scripts[scenario]) {
  console.error(`unknown scenario "${scenario}"; known: ${Object.keys(scripts).join(', ')}`);
  process.exit(2);
}
ensureInstall();
run('npm run build -w shared-types -w server -w wechat-sim');
const r = spawnSync('node', [scripts[scenario], ...rest], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
