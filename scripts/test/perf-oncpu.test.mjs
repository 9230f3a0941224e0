// bench/perf-oncpu.mjs: the tally of `perf script -F tid,ip,sym,dso` output, with and without
// call chains, on text written by hand in perf's two layouts (exact figures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kindOf, symbolOf, tally } from '../../bench/perf-oncpu.mjs';

const MAP = '(/tmp/perf-4242.map)';

test('a frame: what kind of code it ran, and its symbol', () => {
  assert.equal(kindOf('ffffffff822fc8db tcp_sendmsg ([kernel.kallsyms])'), 'kernel');
  assert.equal(kindOf(`7f01 JS:*answer /srv/app/server/dist/http/lean.js:146:17 ${MAP}`), 'jit');
  assert.equal(kindOf('1e2f Builtins_LoadIC (/usr/bin/node)'), 'builtins');
  assert.equal(kindOf('1e2f v8::internal::Heap::Scavenge (/usr/bin/node)'), 'node');
  assert.equal(kindOf('99d4 malloc (/usr/lib/x86_64-linux-gnu/libc.so.6)'), 'libc');
  assert.equal(kindOf('99d4 something (/usr/lib/libother.so)'), 'other');
  assert.equal(
    symbolOf(`7f01 JS:*answer /srv/app/server/dist/http/lean.js:146:17 ${MAP}`),
    'answer server/dist/http/lean.js:146:17',
  );
  assert.equal(
    symbolOf(`7f02 JS:^send /x/node_modules/ioredis/built/Redis.js:9:1 ${MAP}`),
    'send node_modules/ioredis/built/Redis.js:9:1',
  );
  assert.equal(symbolOf('ffff tcp_sendmsg ([kernel.kallsyms])'), 'tcp_sendmsg');
});

test('without call chains: one line a sample, other threads left out', () => {
  const text = [
    '  4242 ffffffff822fc8db tcp_sendmsg ([kernel.kallsyms])',
    '  4242     1e2f Builtins_LoadIC (/usr/bin/node)',
    '  4250     1e2f Builtins_LoadIC (/usr/bin/node)', // a helper thread of the same process
    '  4242     1e2f Builtins_LoadIC (/usr/bin/node)',
    '',
  ].join('\n');
  const t = tally(text, 4242);
  assert.equal(t.samples, 3);
  assert.deepEqual(Object.fromEntries(t.kinds), { kernel: 1, builtins: 2 });
  assert.deepEqual(Object.fromEntries(t.leaves), { tcp_sendmsg: 1, Builtins_LoadIC: 2 });
  assert.equal(t.nearestJs.size, 0);
});

test('with call chains: each sample given to its nearest JavaScript frame', () => {
  const chain = (tid, ...frames) => [`${tid} `, ...frames.map((f) => `\t${f}`), ''].join('\n');
  const text = [
    chain(
      4242,
      'ffffffff822fc8db tcp_sendmsg ([kernel.kallsyms])',
      '99d4 __libc_writev (/usr/lib/x86_64-linux-gnu/libc.so.6)',
      `7f01 JS:*answer /srv/app/server/dist/http/lean.js:146:17 ${MAP}`,
      `7f03 JS:*processTicksAndRejections node:internal/process/task_queues:67:35 ${MAP}`,
    ),
    chain(
      4242,
      '1e2f Builtins_LoadIC (/usr/bin/node)',
      `7f01 JS:*answer /srv/app/server/dist/http/lean.js:146:17 ${MAP}`,
    ),
    chain(
      4250,
      '1e2f Builtins_LoadIC (/usr/bin/node)',
      `7f01 JS:*answer /srv/app/server/dist/http/lean.js:146:17 ${MAP}`,
    ),
    chain(4242, '1e2f v8::internal::Heap::Scavenge (/usr/bin/node)', '5a5a uv_run (/usr/bin/node)'),
  ].join('\n');
  const t = tally(text, 4242);
  assert.equal(t.samples, 3);
  assert.deepEqual(Object.fromEntries(t.kinds), { kernel: 1, builtins: 1, node: 1 });
  assert.deepEqual(Object.fromEntries(t.nearestJs), {
    'answer server/dist/http/lean.js:146:17': 2,
    '(no JavaScript frame: node)': 1,
  });
});
