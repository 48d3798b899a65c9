import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The gateway must run against a backend it did not ship: no import of the stand-ins' source. */
const overHttpOnly = {
  regex: '(^|/)(legacy-service|idp)/',
  message:
    'The gateway talks to the legacy service and the identity provider over HTTP, never through their source.',
};
const rbacNotOnGraphql = {
  regex: '^\\.{1,2}/(.*/)?graphql/',
  message: 'rbac/ must not depend on graphql/: take legacy reads from legacy/.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/.mesh/**', '**/dist/**', 'data/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The gateway must run against a backend it did not ship: it reads the legacy service and the identity
    // provider over HTTP only. Tests may start the stand-ins.
    files: ['gateway/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [overHttpOnly],
        },
      ],
    },
  },
  {
    // RBAC decides for both routes; GraphQL uses it, not the other way round. A later
    // `no-restricted-imports` for the same files replaces the earlier one, so rbac/'s sources repeat the
    // gateway's rule (test/lint-boundaries.test.ts checks both); its tests, like every test, may start the stand-ins.
    files: ['gateway/src/rbac/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [overHttpOnly, rbacNotOnGraphql] }] },
  },
  {
    files: ['gateway/src/rbac/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [rbacNotOnGraphql] }] },
  },
  {
    // Tests read JSON bodies whose shape is what they assert; typing every one would add noise, not safety.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
