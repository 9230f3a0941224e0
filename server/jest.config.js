/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // jose is ESM-only: Node 20 loads it natively, jest needs it compiled to CommonJS.
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest'] },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleNameMapper: { '^@showtix/shared-types$': '<rootDir>/../shared-types/src' },
  testTimeout: 60000,
  maxWorkers: 2,
};
