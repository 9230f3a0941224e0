import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { missingNodeFlags, SERVER_NODE_FLAGS } from '../../src/runtime-flags';

const SEMI = '--max-semi-space-size';

/** What V8 reserves for the heap in a Node started with `flags` (the young generation is in it). */
function heapLimitMb(flags: readonly string[]): number {
  const r = spawnSync(
    process.execPath,
    [...flags, '-p', 'require("v8").getHeapStatistics().heap_size_limit / 2 ** 20'],
    { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  expect(r.status).toBe(0);
  return Number(r.stdout.trim());
}

describe('the Node.js flags the server is started with', () => {
  it('finds a flag missing only when neither the command line nor NODE_OPTIONS names it', () => {
    expect(missingNodeFlags([], undefined)).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingNodeFlags(['--inspect'], '--enable-source-maps')).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingNodeFlags([...SERVER_NODE_FLAGS], undefined)).toEqual([]);
    expect(missingNodeFlags([], ` ${SERVER_NODE_FLAGS.join(' ')} --enable-source-maps`)).toEqual([]);
    // A deployment may choose its own value, and V8 reads underscores as dashes.
    expect(missingNodeFlags([`${SEMI}=128`], undefined)).toEqual([]);
    expect(missingNodeFlags(['--max_semi_space_size=32'], undefined)).toEqual([]);
  });

  it('are flags this Node honours: the young generation grows by three semi-spaces', () => {
    const semiMb = Number(SERVER_NODE_FLAGS.find((f) => f.startsWith(`${SEMI}=`))?.split('=')[1]);
    expect(semiMb).toBeGreaterThan(16);
    // Against 16 MB, Node 20's default; V8 reserves 3 semi-spaces for the young generation.
    expect(heapLimitMb(SERVER_NODE_FLAGS) - heapLimitMb([`${SEMI}=16`])).toBe(3 * (semiMb - 16));
  });

  it("are on `npm start -w server`'s command line", () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const words = pkg.scripts.start.split(/\s+/);
    for (const f of SERVER_NODE_FLAGS) expect(words).toContain(f);
    expect(words.indexOf(SERVER_NODE_FLAGS[0])).toBeLessThan(words.indexOf('dist/main.js'));
  });
});
