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
};
