import { defineConfig } from 'vitest/config';

// TEST_DB=pglite (default) or TEST_DB=postgres; `npm test` runs both (scripts/test.sh).
export default defineConfig({
  // Node resolves `graphql` to its CommonJS main (the package has no exports map) while Vite
  // prefers its `module` build; two copies of graphql cannot share a schema. Resolve as Node does.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll (the browser tests' "until the page shows it") gives up after 1 s by default:
    // a page that loads and queries on a machine running both suites can take longer (CI failed
    // on a leaderboard's first rows so). It returns as soon as the page shows it.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // PGlite runs in the test's own thread; two workers suit these 2-core machines.
    maxWorkers: 2,
  },
});
