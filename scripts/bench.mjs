// npm run bench [-- --scenario flash-sale|queue|gate|pay|overload|ab|seat-polls|expiry ...]: builds the server, then runs the scenario.
// --topology cluster: the flash sale on the distributed topology (bench/cluster/run.mjs).
// --node 24: the server and the hello-world it is compared with run on Node.js 24 LTS (installed
// from the npm registry into .data/node24, as for the test step), the runtime docs/deploy.md asks
// for; without it both run on the machine's Node. (BENCH_SERVER_NODE names any other binary.)
import { spawnSync } from 'node:child_process';
import { ensureInstall, root, run } from './lib.mjs';
import { ensureNode24 } from './node24.mjs';

let rest = process.argv.slice(2);
/** The value of `--name value`, taken out of the arguments passed on to the scenario. */
function take(name) {
  const k = rest.indexOf(name);
  if (k < 0) return undefined;
  const value = rest[k + 1];
  rest = [...rest.slice(0, k), ...rest.slice(k + 2)];
  return value;
}
const scenario = take('--scenario') ?? 'flash-sale';
const topology = take('--topology') ?? 'single';
const node = take('--node');
if (node !== undefined && (node !== '24' || topology === 'cluster')) {
  console.error("--node: 24 (or leave it out for the machine's Node); not with --topology cluster");
  process.exit(2);
}
if (!['single', 'cluster'].includes(topology) || (topology === 'cluster' && scenario !== 'flash-sale')) {
  console.error('--topology: single (default) or cluster (flash-sale only)');
  process.exit(2);
}
const scripts = {
  'flash-sale': 'bench/flash-sale/run.mjs',
  queue: 'bench/queue/run.mjs',
  gate: 'bench/gate/run.mjs',
  pay: 'bench/pay/run.mjs',
  overload: 'bench/overload/run.mjs',
  ab: 'bench/ab/run.mjs',
  'seat-polls': 'bench/seat-polls/run.mjs',
  expiry: 'bench/expiry/run.mjs',
};
if (!scripts[scenario]) {
  console.error(`unknown scenario "${scenario}"; known: ${Object.keys(scripts).join(', ')}`);
  process.exit(2);
}
ensureInstall();
run('npm run build -w shared-types -w server -w wechat-sim');
const script = topology === 'cluster' ? 'bench/cluster/run.mjs' : scripts[scenario];
const env = node ? { ...process.env, BENCH_SERVER_NODE: ensureNode24() } : process.env;
const r = spawnSync('node', [script, ...rest], { cwd: root, stdio: 'inherit', env });
process.exit(r.status ?? 1);
