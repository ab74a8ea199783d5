import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_OPTIONS } from '../../src/node-options';
import { freePort } from '../ports';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's entry and sources bundled into one ES module (server-bundle.ts), which tests start. */
    serverBundle: string;
  }
}

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
 * How long a server started by a test may take to answer: a minute on a quiet machine, longer while
 * other work holds the cores (the load average per core over 2), at most 160 s (below the hooks' 180 s).
 */
export function serverStartTimeoutMs(): number {
  const load = (os.loadavg()[0] ?? 0) / os.availableParallelism();
  return Math.min(60_000 * Math.max(1, load / 2), 160_000);
}

export interface ServerProcessOptions {
  /** How long it may take to answer; {@link serverStartTimeoutMs} unless given. */
  timeoutMs?: number;
  /** Another copy of the code to run (a previous release), through tsx. */
  root?: string;
  /** Given to Node before the script (`--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeOptions?: readonly string[];
  /**
   * The server's sources bundled into one module (`inject('serverBundle')`, server-bundle.ts), run
   * instead of `--import tsx apps/server/src/main.ts`; not with `root`.
   */
  bundle?: string;
}

/**
 * `node --import tsx apps/server/src/main.ts` (or its bundle) with the given environment, as an
 * operator starts an instance; resolves once `/api/v1/health` answers. `PORT` in `env` keeps an address
 * (an instance replaced behind a load balancer).
 */
export async function startServerProcess(
  env: Record<string, string>,
  { timeoutMs = serverStartTimeoutMs(), root = ROOT, nodeOptions = [], bundle }: ServerProcessOptions = {},
): Promise<ServerProcess> {
  if (bundle && root !== ROOT) throw new Error('A bundle is of this copy of the code: not with another root');
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const entry = bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', 'apps/server/src/main.ts'];
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_OPTIONS, ...nodeOptions, ...entry], {
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
  });
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
