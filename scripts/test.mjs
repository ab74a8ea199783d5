// `npm test`: format, lint, types, unit and API tests (SQLite and PostgreSQL), then the web build and
// the end-to-end tests in real Chromium. Every step runs; the run fails if any step fails. The last
// line counts the test cases: "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const RESULTS = '.vitest';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

const steps = [
  ['format', 'npx', ['prettier', '--check', '.']],
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['types', 'npm', ['run', '--silent', 'typecheck']],
  [
    'unit and API',
    'npx',
    [
      'vitest',
      'run',
      ...['domain', 'api', 'simulation', 'server', 'simulator', 'web'].flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${RESULTS}/unit.json`,
    ],
  ],
  ['web build', 'npm', ['run', '--silent', 'build']],
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
    ],
  ],
];

const failedSteps = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) failedSteps.push(name);
  console.log(`=== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} (${seconds} s)`);
}

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
if (failedSteps.length > 0) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 || failed > 0 ? 1 : 0);
