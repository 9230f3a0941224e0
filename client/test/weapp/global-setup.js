const { existsSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

/** Builds the weapp output once if a previous step has not. */
module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../../..');
  if (existsSync(path.join(root, 'dist/weapp/app.js'))) return;
  const r = spawnSync('npm', ['run', 'build:weapp'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('weapp build failed');
};
