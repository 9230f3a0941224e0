/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/test/serial/',
    '<rootDir>/test/cluster/',
    '<rootDir>/test/replica/',
  ],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: {
    '^@showtix/shared-types$': '<rootDir>/../shared-types/src',
    '^@showtix/shared-types/dist/(.*)$': '<rootDir>/../shared-types/src/$1',
    '^@showtix/wechat-sim$': '<rootDir>/../wechat-sim/src/index.ts',
  },
  testTimeout: 60000,
  maxWorkers: 2,
  // A worker is replaced after a test file once its heap passes this. Not a leak (with
  // --expose-gc and --logHeapUsage the heap stays at 160-290 MB file after file): V8 lets the
  // garbage of 55 files, each loading the whole server, pile up to 1.1 GB before collecting it,
  // and a Node process's exit takes time with the size of its heap (~100 ms at 0.1 GB, ~500 ms
  // at 1.2 GB here), so at the end of the run jest's 500 ms for a worker's exit ran out and it
  // warned "A worker process has failed to exit gracefully" with no handle left open.
  workerIdleMemoryLimit: '512MB',
};
