import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs twice in CI: on the embedded database, then with TEST_DATABASE_URL against a PostgreSQL server.
 * Tests whose subject is not the database (unit tests of pure modules, the endpoint server, the console's pages
 * in the browser) answer the same both times, so the second pass leaves them out.
 */
const onServerDatabase = (process.env.TEST_DATABASE_URL ?? '') !== '';
const databaseIndependent = [
  'apps/statboard/src/**/*.test.ts',
  'apps/console/**/*.test.ts',
  'packages/endpoint-server/**/*.test.ts',
  'packages/sdk/test/format.test.ts',
  'tests/engines.test.ts',
];

export default defineConfig({
  test: {
    include: [
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', ...(onServerDatabase ? databaseIndependent : [])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
