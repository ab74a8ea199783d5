// `npm test`: format, lint (eslint, then knip: no unused export, file or dependency), types and the web
// build, then the unit and API tests (SQLite and PostgreSQL) and the end-to-end tests in real Chromium.
// Every step runs; the run fails if any step fails. It provides what the tests need first: Chromium,
// Mosquitto and HAProxy (installed when missing and the run is root on Debian, else one line saying
// what is missing and how to install it) and a PostgreSQL server
// (FIELDLINK_TEST_DATABASE_URL, else the one at the default address, else a throwaway server of its
// own, removed at the end). The last line counts the test cases and times each step:
// "tests: N passed, N failed; setup 3.1 s, format 20.4 s, ...".
// The static checks (format, lint, knip, the type check of all workspaces) and the web build each use
// about one core and write nothing the others read: they run two at a time, the longest first, each
// one's output printed whole when it ends (docs/decisions.md, "Issue 37 item 7: suite time" and round
// 10). The tests run after them, one step at a time.
// Run with tsx (package.json), which lets it share the test servers' TypeScript helpers.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { CHROMIUM_PATH } from '../e2e/src/chromium.ts';
import { DYNSEC_PLUGIN, HAPROXY_BIN, MOSQUITTO_BIN, provideTestPostgres } from '@fieldlink/server/testing/services';

const RESULTS = '.vitest';
// What failed, in a few lines, printed last (scripts/failure-reporter.ts).
const FAILURE_REPORTER = './scripts/failure-reporter.ts';
const FAILURES = `${RESULTS}/failures.txt`;
const started = Date.now();
const times = [];
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Stops the run at once with one line. */
function fail(line) {
  console.error(`npm test: ${line}`);
  process.exit(1);
}

const executable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * What is missing of Chromium, Mosquitto and HAProxy: each with its Debian package (null when a path set by
 * hand is missing: not apt's to fix) and the variables that point elsewhere.
 */
function missingTools() {
  const missing = [];
  if (!executable(CHROMIUM_PATH)) {
    missing.push({
      what: `Chromium (${CHROMIUM_PATH})`,
      apt: process.env.CHROMIUM_PATH ? null : 'chromium',
      variables: 'CHROMIUM_PATH',
    });
  }
  if (!executable(MOSQUITTO_BIN) || !existsSync(DYNSEC_PLUGIN)) {
    const custom = process.env.FIELDLINK_TEST_MOSQUITTO || process.env.FIELDLINK_TEST_DYNSEC_PLUGIN;
    missing.push({
      what: `Mosquitto 2 with its dynamic-security plugin (${MOSQUITTO_BIN}, ${DYNSEC_PLUGIN})`,
      apt: custom ? null : 'mosquitto',
      variables: 'FIELDLINK_TEST_MOSQUITTO and FIELDLINK_TEST_DYNSEC_PLUGIN',
    });
  }
  if (!executable(HAPROXY_BIN)) {
    missing.push({
      what: `HAProxy (${HAPROXY_BIN})`,
      apt: process.env.FIELDLINK_TEST_HAPROXY ? null : 'haproxy',
      variables: 'FIELDLINK_TEST_HAPROXY',
    });
  }
  return missing;
}

function provideTools() {
  const missing = missingTools();
  if (missing.length === 0) return;
  const what = missing.map((tool) => tool.what).join(' and ');
  const packages = missing.map((tool) => tool.apt);
  const installable = packages.every(Boolean);
  const rootOnDebian = process.getuid?.() === 0 && existsSync('/etc/debian_version') && executable('/usr/bin/apt-get');
  if (!installable || !rootOnDebian) {
    const remedy = installable ? `install with \`sudo apt-get install ${packages.join(' ')}\`` : 'fix the path you set';
    const variables = missing.map((tool) => tool.variables).join(', ');
    fail(`${what} missing: ${remedy} (or point ${variables} at them), then run npm test again`);
  }
  console.log(`npm test: installing ${packages.join(' ')} with apt-get, as .ci/run did (missing: ${what})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (result.status !== 0)
      fail(`apt-get ${args.join(' ')} failed; install ${packages.join(' ')} and run npm test again`);
  }
  const still = missingTools();
  if (still.length > 0) fail(`${still.map((tool) => tool.what).join(' and ')} still missing after apt-get install`);
}

/**
 * CPU seconds of each step alone (1 December 2026, at load 14-30; a step not listed counts as 0 and
 * goes last). The checks start longest first, so that the two lanes end together: the type check, one
 * `tsc -b` over the workspaces' project references, in one lane (about 0.59 of the nine separate
 * programs' 114 s), lint then format in the other (docs/decisions.md, "Issue 37 item 7 (round 10):
 * unit and API, the checks' lanes" and "Issue 37 item 7 (round 13): one tsc -b for the type check").
 */
const CPU_SECONDS = {
  types: 67,
  lint: 44,
  format: 30,
  'web build': 4,
  knip: 4,
};
/**
 * Steps that only read the tree, each mostly on one core: the type check (`npm run typecheck`, which
 * writes only declarations and build info to `.tsbuild`, read by no other step), lint, format, knip,
 * and the web build, which writes only `apps/web/dist` (no check reads it; the end-to-end tests need
 * it, the unit tests do not).
 */
const checks = [
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['format', 'npx', ['prettier', '--check', '.']],
  ['knip', 'npm', ['run', '--silent', 'knip']],
  ['web build', 'npm', ['run', '--silent', 'build']],
  ['types', 'npm', ['run', '--silent', 'typecheck']],
].sort(([a], [b]) => (CPU_SECONDS[b] ?? 0) - (CPU_SECONDS[a] ?? 0));
/** Checks at once: each is single-threaded, and the machine this suite is timed on has two cores. */
const CHECKS_AT_ONCE = 2;

const steps = [
  [
    'unit and API',
    'npx',
    [
      'vitest',
      'run',
      ...['domain', 'api', 'services', 'simulation', 'server', 'simulator', 'web', 'tooling', 'cluster'].flatMap(
        (p) => ['--project', p],
      ),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${RESULTS}/unit.json`,
      `--reporter=${FAILURE_REPORTER}`,
    ],
  ],
  [
    'end-to-end',
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'e2e',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${RESULTS}/e2e.json`,
      `--reporter=${FAILURE_REPORTER}`,
    ],
  ],
];

const children = new Set();
let interrupted = null;
let postgres = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = signal;
    // Each step leads its own process group (npx's child, eslint or vitest, is in it too): the signal
    // goes to the whole group, so nothing of a step outlives the run. Cleanup follows its end.
    for (const child of children) {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // The step's group has just ended.
      }
    }
    if (children.size === 0) void Promise.resolve(postgres?.close()).finally(() => process.exit(1));
  });
}

/** Runs one step; `output` collects its standard output and error instead of passing them through. */
function runStep(command, args, env, output = null) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: output ? ['inherit', 'pipe', 'pipe'] : 'inherit',
      env,
      detached: true,
    });
    children.add(child);
    if (output) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.once('close', (code) => {
      children.delete(child);
      resolve(code ?? 1);
    });
    child.once('error', () => {
      children.delete(child);
      resolve(1);
    });
  });
}

/** Runs the checks `CHECKS_AT_ONCE` at a time; each one's output is printed whole when it ends. */
async function runChecks(env, failedSteps) {
  const queue = [...checks];
  console.log(`\n=== checks, ${CHECKS_AT_ONCE} at a time: ${checks.map(([name]) => name).join(', ')}`);
  const lane = async () => {
    for (let check = queue.shift(); check && !interrupted; check = queue.shift()) {
      const [name, command, args] = check;
      const output = [];
      const stepStarted = Date.now();
      const status = await runStep(command, args, env, output);
      if (status !== 0) failedSteps.push(name);
      times.push(`${name} ${seconds(stepStarted)}`);
      console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
      process.stdout.write(Buffer.concat(output));
      console.log(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} (${seconds(stepStarted)})`);
    }
  };
  await Promise.all(Array.from({ length: CHECKS_AT_ONCE }, lane));
}

console.log('\n=== setup: Chromium, Mosquitto, HAProxy, PostgreSQL');
provideTools();
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
try {
  postgres = await provideTestPostgres();
} catch (error) {
  fail(error.message);
}
console.log(`PostgreSQL: ${postgres.description}`);
times.push(`setup ${seconds(started)}`);

const env = {
  ...process.env,
  FIELDLINK_TEST_DATABASE_URL: postgres.url,
  FIELDLINK_FAILURES_FILE: FAILURES,
  FORCE_COLOR: process.env.CI ? '0' : '1',
};
const failedSteps = [];
const checksStarted = Date.now();
await runChecks(env, failedSteps);
times.push(`checks ${CHECKS_AT_ONCE} at a time ${seconds(checksStarted)}`);
for (const [name, command, args] of steps) {
  if (interrupted) break;
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const stepStarted = Date.now();
  const status = await runStep(command, args, env);
  if (status !== 0) failedSteps.push(name);
  times.push(`${name} ${seconds(stepStarted)}`);
  console.log(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} (${seconds(stepStarted)})`);
}
await postgres.close();
if (interrupted) process.exit(1);

let passed = 0;
let failed = 0;
for (const file of ['unit.json', 'e2e.json']) {
  try {
    const report = JSON.parse(readFileSync(`${RESULTS}/${file}`, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  } catch {
    // The step failed before writing its report; it is counted among the failed steps.
  }
}
if (existsSync(FAILURES)) console.log(`\nWhat failed:\n${readFileSync(FAILURES, 'utf8').slice(0, 8000)}`);
if (failedSteps.length > 0) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
const total = Math.round((Date.now() - started) / 1000);
console.log(
  `\ntests: ${passed} passed, ${failed} failed; ${times.join(', ')}; total ${Math.floor(total / 60)} min ${total % 60} s`,
);
process.exit(failedSteps.length > 0 || failed > 0 ? 1 : 0);
