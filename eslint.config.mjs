// One lint setup for every workspace (flat config): ESLint's and typescript-eslint's
// recommended rules, with formatting left to Prettier.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * A function longer than this (blank lines and comments aside) is split; tests are exempt. No file
 * has its own higher limit any more (issue 15 split the last ones), and none should get one.
 */
const MAX_FUNCTION_LINES = 80;
const functionLength = (max) => ({
  'max-lines-per-function': ['error', { max, skipBlankLines: true, skipComments: true, IIFEs: true }],
});

export default tseslint.config(
  {
    ignores: [
      '**/*.json',
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'test-artifacts/**',
      '.swc/**',
      'bench/results/**',
      '**/*.{yml,yaml}',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // Rows from mysql2 and parsed JSON are typed at the edges; `any` there is deliberate.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Every stored time is UTC: a bare mysql.format renders Dates in the process's local time.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/db/sql.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'mysql', property: 'format', message: 'Use formatSql (server/src/db/sql.ts): UTC dates.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['mysql2', 'mysql2/promise'].map((name) => ({
            name,
            importNames: ['format'],
            message: 'Use formatSql (server/src/db/sql.ts): UTC dates.',
          })),
        },
      ],
    },
  },
  {
    files: ['**/test/**', '**/*.test.*', '**/e2e/**'],
    languageOptions: { globals: { ...globals.jest } },
  },
  {
    files: ['**/*.{js,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['**/test/**', '**/*.test.*', '**/e2e/**'],
    rules: functionLength(MAX_FUNCTION_LINES),
  },
);
