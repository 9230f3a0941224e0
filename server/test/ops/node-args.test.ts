import { readFileSync } from 'node:fs';
import path from 'node:path';
import nodeArgs from '../../node-args';

const root = path.resolve(__dirname, '../../..');
const read = (p: string) => readFileSync(path.join(root, p), 'utf8');

describe("the server's V8 flags (server/node-args.js)", () => {
  it('are a young generation large enough for the per-request caches', () => {
    expect(nodeArgs).toContain('--max-semi-space-size=64');
  });

  it('are given wherever the server is started', () => {
    const start = (JSON.parse(read('server/package.json')) as { scripts: { start: string } }).scripts.start;
    for (const flag of nodeArgs) expect(start).toContain(flag);
    expect(start).toMatch(/dist\/main\.js$/);
    for (const launcher of ['scripts/start.mjs', 'scripts/cluster.mjs', 'bench/lib.mjs'])
      expect(read(launcher)).toMatch(/server\/node-args\.js/);
  });
});
