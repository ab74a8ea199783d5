import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameRecorder } from './testing/frame-recorder';
import { startTestBroker, type TestBroker } from './testing/test-broker';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const devices = [
  { thingName: 'cli-0001', password: 'secret-1', kind: 'generic' },
  { thingName: 'cli-0002', password: 'secret-2', kind: 'sprayer' },
];

let broker: TestBroker;
let recorder: FrameRecorder;
let directory: string;

beforeAll(async () => {
  broker = await startTestBroker(
    new Map([...devices.map((device) => [device.thingName, device.password] as const), ['observer', 'observer']]),
  );
  recorder = await FrameRecorder.connect(broker.url, 'observer', 'observer');
  directory = mkdtempSync(join(tmpdir(), 'fieldlink-simulator-'));
});

afterAll(async () => {
  await recorder?.close();
  await broker?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('simulator CLI', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'runs a fleet from a credentials file, prints summaries, and stops by itself on %s',
    async (signal) => {
      const credentials = join(directory, `devices-${signal}.json`);
      writeFileSync(credentials, JSON.stringify(devices));
      const from = recorder.frames.length;
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          CLI,
          '--credentials',
          credentials,
          '--broker',
          broker.url,
          '--interval',
          '0.1',
          '--summary',
          '0.3',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const exited = once(child, 'exit');

      try {
        await expect
          .poll(() => output, { timeout: 15_000, interval: 100 })
          .toMatch(/simulator: 2\/2 online \| frames sent \d+/);
      } finally {
        child.kill(signal);
      }
      const [code] = await exited;
      expect(code).toBe(0);
      for (const device of devices) {
        const goodbye = recorder
          .framesOf(device.thingName, from)
          .find((frame) => frame.type === 'conn' && !frame.connected);
        expect(goodbye).toMatchObject({ connected: false, t: expect.any(Number) });
      }
    },
  );

  it('exits with usage on bad arguments', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--devices', '3'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(errors).toMatch(/--credentials FILE is required/);
    expect(errors).toMatch(/Usage: npm run simulator/);
  });
});
