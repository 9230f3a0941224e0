/**
 * Renders pages of the compiled mini-program (dist/weapp) with miniprogram-simulate and the
 * official WXML compiler it ships. The global setup builds dist/weapp when it is missing.
 */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/test/weapp/**/*.test.js'],
  globalSetup: '<rootDir>/test/weapp/global-setup.js',
  // The compiled bundle runs as WeChat would run it: never transformed.
  transformIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2020' },
        module: { type: 'commonjs' },
      },
    ],
  },
  testTimeout: 30_000,
};
