import { availableParallelism } from 'node:os';
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
const include = [
  'apps/*/src/**/*.test.ts',
  'apps/*/test/**/*.test.ts',
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'tests/**/*.test.ts',
];
const exclude = ['**/node_modules/**', ...(onServerDatabase ? databaseIndependent : [])];

/**
 * Files that hold the machine to time limits of their own (a fault must be answered within 5 s, clients must
 * recover within a bound while the database restarts): they run alone, one after the other, once every other file
 * is done, so that the load of the rest never decides whether they pass.
 */
const alone = ['tests/chaos/**/*.test.ts'];

/**
 * Test files at once, for the rest: most of a file's time is waiting (on a browser, a child process, a database,
 * a timer), so one more file than cores keeps the cores busy. Vitest's default is one fewer than the cores: a
 * single file at a time on 2 cores.
 */
const workers = Math.min(availableParallelism() + 1, 8);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include,
          exclude: [...exclude, ...alone],
          maxWorkers: workers,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: alone,
          exclude,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
