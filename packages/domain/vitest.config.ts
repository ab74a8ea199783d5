import { defineConfig } from 'vitest/config';

// The domain's tests alone, for mutation testing (`npm run mutate`, stryker.config.json): Stryker's
// vitest runner takes one configuration, and the root one holds every project (servers, browsers).
// Its property tests take seconds on a shared, loaded machine, where the 5 s default failed Stryker's
// initial run; a mutant that loops is stopped by Stryker's own timeout.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
