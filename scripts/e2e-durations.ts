// Writes scripts/e2e-durations.json, the e2e files' seconds in a full `npm test` run, from that run's
// report (.vitest/e2e.json, scripts/test.mjs): `npm run e2e:durations` after a full run on main. The
// e2e files' order is planned with them (scripts/e2e-order.ts); a fresh clone has no other record.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const report = JSON.parse(readFileSync('.vitest/e2e.json', 'utf8')) as Report;
const seconds = Object.fromEntries(
  report.testResults
    .map(
      (result) => [relative('e2e/src', result.name), Math.round((result.endTime - result.startTime) / 1000)] as const,
    )
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync('scripts/e2e-durations.json', `${JSON.stringify(seconds, null, 2)}\n`);
