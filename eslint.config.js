// One linter for the monorepo. Boundaries are errors, not warnings (docs/architecture.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noRestricted = (patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  // Packages know nothing of apps; low packages know only core.
  {
    files: ['packages/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': noRestricted([
        { group: ['@openseal/server', '@openseal/web', '**/apps/**'], message: 'packages never import apps' },
      ]),
    },
  },
  {
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': noRestricted([
        {
          group: ['@openseal/*', '**/apps/**', 'kysely', 'fastify', 'node:*'],
          message: 'core is pure: no other package, no I/O',
        },
      ]),
    },
  },
  // The seal image engine runs in the browser too: its renderer is pure; only its `node` entry may do I/O.
  {
    files: ['packages/seal-image/src/**/*.ts'],
    ignores: ['packages/seal-image/src/node/**', 'packages/seal-image/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': noRestricted([
        {
          group: [
            '@openseal/pki',
            '@openseal/pdf',
            '@openseal/db',
            '@openseal/evidence',
            '**/apps/**',
            'node:*',
          ],
          message: 'the seal renderer is shared with the browser: core at most, no I/O',
        },
      ]),
    },
  },
  // The OFD reader runs in the browser too: no I/O, no other package of ours.
  {
    files: ['packages/ofd/src/**/*.ts'],
    ignores: ['packages/ofd/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': noRestricted([
        {
          group: ['@openseal/*', '**/apps/**', 'node:*'],
          message: 'the OFD reader is shared with the browser: no I/O',
        },
      ]),
    },
  },
  // The UKey agent is an app of its own: it never imports the server or the web app.
  {
    files: ['apps/ukey-agent/**/*.ts'],
    rules: {
      'no-restricted-imports': noRestricted([
        {
          group: [
            '@openseal/server',
            '@openseal/web',
            '**/apps/server/**',
            '**/apps/web/**',
            '@openseal/db',
            'kysely',
          ],
          message: 'apps never import each other; the agent has no database',
        },
      ]),
    },
  },
  // Only repository files (and the db package, and tests) touch Kysely.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/plugins/db.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/test/**',
    ],
    rules: {
      'no-restricted-imports': noRestricted([
        { group: ['kysely', 'kysely/*'], message: 'only *.repository.ts files query the database' },
        { group: ['@openseal/web', '**/apps/web/**'], message: 'apps never import each other' },
      ]),
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    // The build configuration runs in Node, not in the browser.
    ignores: ['apps/web/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': noRestricted([
        {
          group: ['@openseal/server', '@openseal/db', '**/apps/server/**', 'kysely', 'node:*'],
          message: 'the web app talks to the server only over HTTP',
        },
      ]),
    },
  },
);
