/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: { '^@showtix/shared-types$': '<rootDir>/../shared-types/src' },
  testTimeout: 60000,
  maxWorkers: 2,
};
