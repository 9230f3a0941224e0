/**
 * Component and logic tests of the fan app: jsdom, @swc/jest, Taro replaced by small stand-ins
 * (test/unit/stubs) so pages render as plain DOM.
 */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', tsx: true },
    transform: { react: { runtime: 'automatic' } },
    target: 'es2020',
  },
  module: { type: 'commonjs' },
};

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^@tarojs/taro$': '<rootDir>/test/unit/stubs/taro.ts',
    '^@tarojs/components$': '<rootDir>/test/unit/stubs/components.tsx',
    '\\.(s?css)$': '<rootDir>/test/unit/stubs/style.ts',
  },
  setupFiles: ['<rootDir>/test/unit/stubs/setup.ts'],
  clearMocks: true,
};
