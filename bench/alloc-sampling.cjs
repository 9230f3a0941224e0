// Allocation sampling for a bench's server, preloaded with
//   BENCH_SERVER_NODE_ARGS="--require <repo>/bench/alloc-sampling.cjs" BENCH_ALLOC_DIR=/tmp/alloc
// (bench/ab/run.mjs --alloc does both). SIGUSR2 starts V8's sampling heap profiler; the next
// SIGUSR2 stops it and writes what was allocated in between to
// BENCH_ALLOC_DIR/alloc-<pid>-<n>.heapprofile (written aside, then renamed: a file that exists is
// whole). While it samples, BENCH_ALLOC_DIR/alloc-<pid>.sampling exists, so the sender of the
// first signal knows when to start what it measures. Objects the garbage collector has since freed are counted too: a request's allocations
// are almost all short-lived, and those are what its GC time is made of. Summarised by
// bench/allocprofile.mjs. Nothing of the product loads this file.
'use strict';
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_ALLOC_DIR;
/** Mean bytes between two samples (V8's default is 32 KiB; a request allocates a few KiB). */
const intervalBytes = Number(process.env.BENCH_ALLOC_INTERVAL_BYTES ?? 4096);

if (dir) {
  const session = new inspector.Session();
  session.connect();
  let sampling = false;
  let written = 0;
  const marker = path.join(dir, `alloc-${process.pid}.sampling`);
  process.on('SIGUSR2', () => {
    if (!sampling) {
      sampling = true;
      session.post('HeapProfiler.enable');
      session.post('HeapProfiler.startSampling', {
        samplingInterval: intervalBytes,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      fs.writeFileSync(marker, '');
      return;
    }
    sampling = false;
    session.post('HeapProfiler.stopSampling', (err, r) => {
      if (err) throw err;
      fs.rmSync(marker, { force: true });
      const file = path.join(dir, `alloc-${process.pid}-${++written}.heapprofile`);
      fs.writeFileSync(`${file}.part`, JSON.stringify(r.profile));
      fs.renameSync(`${file}.part`, file);
    });
  });
}
