// The lint's own rules, proved on planted code: a rule the configuration claims must fire (STYLE.md).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });
let planted: string;
let plantedDead: string;

/** The rule ids the lint reports for one planted file. */
async function ruleIdsOf(filePath: string, code?: string): Promise<(string | null)[]> {
  const [result] = code === undefined ? await eslint.lintFiles([filePath]) : await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => message.ruleId);
}

beforeAll(() => {
  // Inside the domain package, so the workspace's TypeScript project and zones apply to it.
  planted = mkdtempSync(join(root, 'packages/domain/src/lint-planted-'));
  writeFileSync(join(planted, 'a.ts'), "import { b } from './b';\nexport const a = (): number => b() + 1;\n");
  writeFileSync(join(planted, 'b.ts'), "import { a } from './a';\nexport const b = (): number => a() + 1;\n");
  // An exported helper nothing imports, where the domain's rules live.
  plantedDead = mkdtempSync(join(root, 'packages/domain/src/knip-planted-'));
  writeFileSync(join(plantedDead, 'dead.ts'), 'export function plantedDeadHelper(): number {\n  return 24;\n}\n');
});
afterAll(() => {
  rmSync(planted, { recursive: true, force: true });
  rmSync(plantedDead, { recursive: true, force: true });
});

/** What `knip --production` (the first half of `npm run knip`) reports, and whether it failed. */
async function knipProduction(): Promise<{ failed: boolean; issues: { file: string; exports: { name: string }[] }[] }> {
  const knip = join(root, 'node_modules/.bin/knip');
  const run = promisify(execFile)(knip, ['--production', '--reporter', 'json'], { cwd: root, maxBuffer: 64 << 20 });
  const { stdout, failed } = await run.then(
    (result) => ({ stdout: result.stdout, failed: false }),
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '', failed: true }),
  );
  return { failed, ...(JSON.parse(stdout) as { issues: { file: string; exports: { name: string }[] }[] }) };
}

describe('the lint configuration', () => {
  it('fails on a two-file import cycle between TypeScript modules', async () => {
    expect(await ruleIdsOf(join(planted, 'a.ts'))).toContain('import-x/no-cycle');
  }, 120_000);

  it('fails on an import across a zone (the domain reaching into the server)', async () => {
    const serverModule = relative(planted, join(root, 'apps/server/src/config'));
    const code = `import { loadConfig } from '${serverModule}';\nexport const config = loadConfig;\n`;
    expect(await ruleIdsOf(join(planted, 'zone.ts'), code)).toContain('import-x/no-restricted-paths');
  }, 120_000);

  it('fails on the shared services importing the simulation, or I/O', async () => {
    const filePath = join(root, 'packages/services/src/planted.ts');
    const code =
      "import { demoTankStory } from '@fieldlink/simulation/demo-brewery';\nimport { readFileSync } from 'node:fs';\n" +
      'export const story = [demoTankStory, readFileSync];\n';
    const rules = await ruleIdsOf(filePath, code);
    expect(rules).toContain('import-x/no-restricted-paths');
    expect(rules).toContain('no-restricted-imports');
  }, 120_000);

  it('fails on a web feature importing another feature', async () => {
    const filePath = join(root, 'apps/web/src/features/brew/planted.ts');
    const code =
      "import { InventoryPage } from '../inventory/components/inventory-page';\nexport const page = InventoryPage;\n";
    expect(await ruleIdsOf(filePath, code)).toContain('import-x/no-restricted-paths');
  }, 120_000);

  it('fails on the server importing another app anywhere but its composition root', async () => {
    const code = "import { startFleet } from '@fieldlink/simulator/fleet';\nexport const fleet = startFleet;\n";
    const planted = join(root, 'apps/server/src/features/brew/planted.ts');
    expect(await ruleIdsOf(planted, code)).toContain('import-x/no-restricted-paths');
    expect(await ruleIdsOf(join(root, 'apps/server/src/main.ts'))).not.toContain('import-x/no-restricted-paths');
  }, 120_000);

  it.each([
    ['bench/src/planted.ts', "import { seedDemo } from '../../apps/server/src/seed/seed';"],
    ['bench/src/planted.ts', "import { seedDemo } from '@fieldlink/server/seed/seed';"],
    ['scripts/planted.mjs', "import { freePort } from '../apps/server/testing/cluster/mosquitto.ts';"],
  ])(
    'fails on %s reaching a server internal (%s), not its testing entry',
    async (file, line) => {
      const name = line.match(/\{ (\w+) \}/)![1];
      expect(await ruleIdsOf(join(root, file), `${line}\nexport const used = ${name};\n`)).toContain(
        'import-x/no-restricted-paths',
      );
      const entry = `import { ${name} } from '@fieldlink/server/testing';\nexport const used = ${name};\n`;
      expect(await ruleIdsOf(join(root, file), entry)).not.toContain('import-x/no-restricted-paths');
    },
    120_000,
  );

  // Issue 37, item 7: tests wait for a condition or an injected clock, never for a fixed time.
  it.each([
    [
      'apps/server/src/features/brew/planted.test.ts',
      'export async function rest() {\n  await new Promise((resolve) => setTimeout(resolve, 300));\n}\n',
    ],
    [
      'e2e/src/planted.test.ts',
      "import type { Page } from 'playwright-core';\nexport const rest = (page: Page) => page.waitForTimeout(800);\n",
    ],
    [
      'apps/web/src/planted.test.ts',
      "import { setTimeout as nap } from 'node:timers/promises';\nexport const rest = () => nap(50);\n",
    ],
    [
      'apps/server/src/features/brew/planted.test.ts',
      "import { promisify } from 'node:util';\nexport const rest = () => promisify(setTimeout)(300);\n",
    ],
    [
      'apps/simulator/src/planted.test.ts',
      'export const rest = () => new Promise((resolve) => globalThis.setTimeout(resolve, 300));\n',
    ],
    [
      'packages/domain/src/planted.test.ts',
      "import { sleep } from './sleep';\nexport async function rest() {\n  await sleep(300);\n}\n",
    ],
  ])(
    'fails on a fixed sleep in a test file (%s)',
    async (file, code) => {
      expect(await ruleIdsOf(join(root, file), code)).toContain('no-restricted-syntax');
    },
    120_000,
  );

  it.each([
    [
      'elapsed by Date.now()',
      "import { expect } from 'vitest';\nconst started = Date.now();\nexpect(Date.now() - started).toBeLessThan(50);\n",
    ],
    [
      'elapsed by performance.now()',
      "import { expect } from 'vitest';\nconst started = performance.now();\nexpect(performance.now() - started).toBeLessThan(50);\n",
    ],
    [
      'elapsed since a time kept on an object',
      "import { expect } from 'vitest';\nconst run = { started: Date.now() };\nexpect(Date.now() - run.started).toBeLessThan(50);\n",
    ],
  ])(
    'fails on a wall-clock assertion in a test file (%s)',
    async (_name, code) => {
      const file = join(root, 'packages/domain/src/planted.test.ts');
      expect(await ruleIdsOf(file, code)).toContain('no-restricted-syntax');
    },
    120_000,
  );

  it('leaves a time in the past and a fake timer of a test alone', async () => {
    const code =
      'const DAY_MS = 86_400_000;\n' +
      'export const times = [Date.now() - 60_000, Date.now() - DAY_MS, Date.now() - 3 * DAY_MS];\n' +
      'export const timers = { setTimeout(task: () => void, ms: number) { return { task, ms }; } };\n';
    expect(await ruleIdsOf(join(root, 'packages/domain/src/planted.test.ts'), code)).not.toContain(
      'no-restricted-syntax',
    );
  }, 120_000);

  it('leaves timers in product code alone (a debounce is no sleep in a test)', async () => {
    const code = 'export const later = (run: () => void) => setTimeout(run, 300);\n';
    expect(await ruleIdsOf(join(root, 'apps/server/src/features/brew/planted.ts'), code)).not.toContain(
      'no-restricted-syntax',
    );
  }, 120_000);

  it('fails on an exported helper that nothing imports (knip, in npm test after eslint)', async () => {
    const { failed, issues } = await knipProduction();
    const file = relative(root, join(plantedDead, 'dead.ts'));
    expect(issues.find((issue) => issue.file === file)?.exports.map((unused) => unused.name)).toEqual([
      'plantedDeadHelper',
    ]);
    expect(failed).toBe(true);
  }, 240_000);
});
