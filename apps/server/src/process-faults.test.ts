import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./process-faults.ts', import.meta.url));

/** Runs a small program beside the server's fault handler in a process of its own; answers how it ended. */
function run(fault: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const program = `
    import Fastify from 'fastify';
    import { exitOnUncaughtError } from ${JSON.stringify(MODULE)};
    const app = Fastify({ logger: true });
    exitOnUncaughtError(() => app.log);
    // eslint-disable-next-line no-restricted-syntax -- the child's own program: it would run on if the fault did not end it
    setTimeout(() => console.log('still running'), 3000);
    ${fault}
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('an error nothing caught', () => {
  it.each([
    [
      'a thrown exception',
      `setImmediate(function insideTheBroker() { throw new RangeError('Maximum call stack size exceeded'); });`,
      'uncaughtException',
    ],
    [
      'a rejection nobody handled',
      `void (async function insideAHandler() { throw new RangeError('Maximum call stack size exceeded'); })();`,
      'unhandledRejection',
    ],
  ])(
    'ends the process at once with exit code 1 and the stack in the log: %s',
    async (_name, fault, origin) => {
      const { code, stdout } = await run(fault);
      expect(code).toBe(1);
      expect(stdout).not.toContain('still running');
      const fatal = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; origin?: string; err?: { stack?: string } })
        .find((entry) => entry.level === 60);
      expect(fatal?.origin).toBe(origin);
      expect(fatal?.err?.stack).toMatch(
        /RangeError: Maximum call stack size exceeded\n\s+at \S*inside(TheBroker|AHandler)/,
      );
    },
    30_000,
  );
});
