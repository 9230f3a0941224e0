/**
 * The MySQL replica suite: a private MariaDB primary + GTID replica (scripts/mariadb-replica.mjs,
 * Debian's mariadbd, free ports, a temp dir; the machine's MariaDB is not touched) is started
 * once for the run. One file at a time: the tests stop and restart the shared replica.
 */
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['<rootDir>/test/replica/**/*.test.ts'],
  globalSetup: '<rootDir>/test/replica/setup.mjs',
  globalTeardown: '<rootDir>/test/replica/teardown.mjs',
  maxWorkers: 1,
  testTimeout: 120_000,
};
