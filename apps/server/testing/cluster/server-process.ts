import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_OPTIONS } from '../../src/node-options';
import { freePort } from '../ports';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Sends the signal and waits for the process to end. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** True when the process ended without being told to. */
  crashed(): boolean;
  /** The exit code once the process has ended by itself or by a signal it handled; null before. */
  exitCode(): number | null;
  output(): string;
}

/**
 * `node --import tsx apps/server/src/main.ts` with the given environment, as an operator starts an
 * instance; resolves once `/api/v1/health` answers. `PORT` in `env` keeps an address (an instance
 * replaced behind a load balancer); `root` runs another copy of the code (a previous release);
 * `nodeOptions` are given to Node before the script (`--cpu-prof`, which NODE_OPTIONS refuses).
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  root = ROOT,
  nodeOptions: readonly string[] = [],
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_OPTIONS, ...nodeOptions, '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        PORT: String(port),
        HOST: '127.0.0.1',
        MQTT_PORT: String(await freePort()),
        FIELDLINK_SIMULATOR: '0',
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`Server did not answer within ${timeoutMs} ms:\n${output}`);
    }
    const healthy = await fetch(`${url}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  let told = false;
  return {
    url,
    pid: child.pid!,
    kill: async (signal) => {
      told = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    crashed: () => !told && (child.exitCode !== null || child.signalCode !== null),
    exitCode: () => child.exitCode,
    output: () => output,
  };
}
