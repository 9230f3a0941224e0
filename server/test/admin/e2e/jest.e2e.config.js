/** The admin page's browser test: headless Chromium against the real server. Run by `npm run test:admin:e2e`. */
const base = require('../../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../../..',
  roots: ['<rootDir>/test/admin/e2e'],
  testMatch: ['**/*.e2e.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 240_000,
};
