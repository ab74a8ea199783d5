import { defineConfig } from 'vitest/config';
import { E2eOrderSequencer } from './scripts/e2e-order.ts';

// One runner for every suite. `npm test` runs the unit and API projects, then `e2e` against a built app.
// Test runs hash passwords at scrypt N = 2^10 instead of the product's 2^17 (apps/server/src/security/
// passwords.ts): seeding and signing in took seconds per test app (docs/PERFORMANCE.md, "Test suite").
const TEST_ENV = { FIELDLINK_TEST_SCRYPT_N: '1024' };
const CLUSTER_LOAD_TEST = 'apps/server/src/ops/rolling-upgrade.test.ts';
/** What an e2e `expect.poll` waits unless it says otherwise (vitest's default is 1 s). */
const E2E_POLL_TIMEOUT_MS = 20_000;

export default defineConfig({
  test: {
    // Two files at a time in every project that sets no count of its own. Vitest's default is one fewer
    // worker than cores: on this 2-core machine one, so the projects before the server's (domain, api,
    // services, simulation, simulator, web, tooling) ran one file at a time with a core idle
    // (docs/PERFORMANCE.md, "Test suite, round 10").
    maxWorkers: 2,
    // Vitest's order (longest first by its results cache), but the e2e files' heaviest run one at a time,
    // each beside lighter ones (scripts/e2e-order.ts). One sequencer serves every project, so it is here.
    sequence: { sequencer: E2eOrderSequencer },
    projects: [
      // Pure functions, no mock, no fake timer, no stubbed global: the files share a worker's modules
      // (`isolate: false`), which cut the project from 43 s to 8 s (docs/PERFORMANCE.md, round 5).
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], isolate: false } },
      // Property tests run a hundred answers each (device-table-binary: timed out at 5 s at load 23).
      { test: { name: 'api', include: ['packages/api/src/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'services', include: ['packages/services/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/testing/**/*.test.ts'],
          exclude: [CLUSTER_LOAD_TEST],
          env: TEST_ENV,
          // One migrated PostgreSQL database per run, which the test apps copy (docs/PERFORMANCE.md), and the
          // server's sources in one module, which the files that start it as a process run (server-bundle.ts).
          globalSetup: ['apps/server/testing/postgres-template.ts', 'apps/server/testing/server-bundle.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Servers, brokers and databases per file, three files at a time on 2 cores (a file waits on its
          // servers, brokers and databases part of the time: round 12 in docs/decisions.md), in forks that each
          // run file after file on one module graph (`isolate: false`): loading the server's modules
          // through vitest for each of the 115 files was about a second of CPU per file (round 8 in
          // docs/PERFORMANCE.md). Every file closes its apps, brokers and databases, and one that stubs
          // the environment restores it (`vi.unstubAllEnvs`); module state is keyed or per app.
          pool: 'forks',
          maxWorkers: 3,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The rolling upgrade measures goals in seconds (every browser back within 5 s) with two
        // instances, HAProxy, 20 devices and 100 browsers: it runs after the other projects, alone, so
        // it measures the product rather than the test file beside it on the same two cores.
        test: {
          name: 'cluster',
          include: [CLUSTER_LOAD_TEST],
          env: TEST_ENV,
          // It starts a PostgreSQL server of its own: no template database.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      // Device models run for simulated days (a water plant 72 h at its 10 s scan: 0.5 s quiet, 6.7 s at
      // load 23): the 30 s of the other projects, so the suite passes on a loaded machine.
      { test: { name: 'simulation', include: ['packages/simulation/src/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'simulator', include: ['apps/simulator/src/**/*.test.ts'], testTimeout: 30_000 } },
      {
        // Each file restores what it fakes or stubs (`afterEach`: real timers, unstubbed globals, restored
        // spies, `cleanup`), so the files share a worker's modules: 122 s to 28 s, and green with the
        // files shuffled (docs/PERFORMANCE.md, round 5). A new test that fakes or stubs restores it too.
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'],
          isolate: false,
          // A cap like the other projects', not a wait: vitest's 5 s ran out for clock-settings (0.6 s
          // alone) at load 28-32 on this machine.
          testTimeout: 30_000,
        },
      },
      // The repository's own tooling (the lint configuration proved on planted code, the benchmark's document,
      // the console build's chunk rule).
      {
        test: {
          name: 'tooling',
          include: ['scripts/**/*.test.ts', 'bench/src/**/*.test.ts', 'apps/web/vite-plugins/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/src/**/*.test.ts'],
          env: TEST_ENV,
          // The server's sources bundled once per run: each e2e server starts without tsx (round 6).
          globalSetup: ['apps/server/testing/server-bundle.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // An `expect.poll` with no timeout of its own waits up to 20 s, not vitest's 1 s: a console
          // choice saved within a second on this machine took longer on CI machines 2-3 times slower
          // (one-clock, console-ux). A poll still ends as soon as it matches.
          expect: { poll: { timeout: E2E_POLL_TIMEOUT_MS } },
          pool: 'forks',
          // Three files at a time, each with its own server, browser and ports: one file used 0.24-0.58 of
          // a core (its waits are the console's and the devices' times). Two at a time took 536.6 s in
          // the quiet full run of 1 December 06:33 UTC; three took 460.2 s, green, on 1 December 11:06
          // UTC, quiet for its first 5 minutes (docs/decisions.md, "Issue 37 item 7 (round 12)").
          maxWorkers: 3,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
