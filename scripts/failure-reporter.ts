// A vitest reporter for `npm test` (scripts/test.mjs): writes what failed, in a few lines, to the file
// named by FIELDLINK_FAILURES_FILE. The runner prints it last, so the end of a CI log (often all
// that is kept) names the failure: a failed test, a file that failed outside its tests (a hook, an
// import), or an error no test caught, which fails the run while every test passed.
import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

interface ReportedError {
  message?: string;
  stack?: string;
}

const MAX_LINES_PER_ERROR = 12;
/** A property test's counterexample is one line of many kilobytes: its start says enough. */
const MAX_LINE = 400;

function describeError(error: ReportedError): string {
  const text = error.stack?.includes(error.message ?? '')
    ? error.stack
    : `${error.message ?? ''}\n${error.stack ?? ''}`;
  return text
    .trim()
    .split('\n')
    .filter((line) => !line.includes('node_modules/'))
    .slice(0, MAX_LINES_PER_ERROR)
    .map((line) => `    ${line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line}`)
    .join('\n');
}

export default class FailureReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<ReportedError>): void {
    const file = process.env.FIELDLINK_FAILURES_FILE;
    if (!file) return;
    const lines: string[] = [];
    for (const module of testModules) {
      const name = `${module.project.name}: ${module.relativeModuleId}`;
      for (const error of module.errors()) lines.push(`${name} failed outside its tests:\n${describeError(error)}`);
      for (const suite of module.children.allSuites()) {
        for (const error of suite.errors()) lines.push(`${name} > ${suite.name} failed:\n${describeError(error)}`);
      }
      for (const test of module.children.allTests('failed')) {
        const [first] = test.result().errors ?? [];
        lines.push(`${name} > ${test.fullName} failed:\n${describeError(first ?? {})}`);
      }
    }
    for (const error of unhandledErrors) lines.push(`An error no test caught:\n${describeError(error)}`);
    if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
  }
}
