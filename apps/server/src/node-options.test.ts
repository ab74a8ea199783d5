import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingServerNodeOptions, SERVER_NODE_OPTIONS } from './node-options';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every command line in `text` that starts the server (`node ... apps/server/src/main.ts`). */
function serverCommandLines(text: string): string[] {
  return text.split('\n').filter((line) => /\bnode\b.*apps\/server\/src\/main\.ts/.test(line));
}

describe('the Node.js options the server is started with', () => {
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;

  it.each([
    ['npm start', scripts.start!],
    ['npm run dev', scripts.dev!],
    ['npm run bench (servers in its own process)', scripts.bench!],
  ])('%s gives every one', (_name, command) => {
    for (const option of SERVER_NODE_OPTIONS) expect(command).toContain(` ${option} `);
  });

  it('docs/operations.md starts the server with every one, wherever it starts it', () => {
    const lines = serverCommandLines(readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) for (const option of SERVER_NODE_OPTIONS) expect(line).toContain(` ${option} `);
  });

  it.each([
    [[], SERVER_NODE_OPTIONS],
    [['--enable-source-maps', ...SERVER_NODE_OPTIONS], []],
    [['--no-allocation-site-pretenuring=false'], SERVER_NODE_OPTIONS],
  ])('a process started with %j misses %j', (execArgv, missing) => {
    expect(missingServerNodeOptions(execArgv)).toEqual(missing);
  });
});
