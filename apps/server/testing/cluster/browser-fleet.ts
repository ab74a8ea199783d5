import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** One browser's outage: when its socket closed, and how long until it was open again and subscribed. */
export interface BrowserOutage {
  at: number;
  open: number;
  subscribed: number;
  attempts: number;
  /** How long the attempt that succeeded took to open. */
  lastAttempt: number;
}

/** A failed attempt to come back: when its outage began, how long the attempt took, and why it failed. */
export interface FailedAttempt {
  at: number;
  ms: number;
  why: string;
}

export type FleetRequest = { type: 'report' } | { type: 'close' };
export type FleetMessage =
  | { type: 'started' }
  | {
      type: 'report';
      open: number;
      outages: BrowserOutage[];
      failedAttempts: FailedAttempt[];
      /** How late the browsers' own loop ran what was due, since they started (its share of the times). */
      loopDelayMs: { p99: number; max: number };
    };

export interface BrowserFleet {
  /** How many browsers hold an open channel now, and every outage and failed attempt so far. */
  report(): Promise<Extract<FleetMessage, { type: 'report' }>>;
  close(): Promise<void>;
}

/**
 * Browsers holding the real-time channel at `url`, one per thing name (each subscribed to it), in a
 * child process of their own (browser-fleet-child.ts) that times their reconnects on a loop nothing
 * else runs on. Times are `Date.now()`, so they compare with the parent's. Resolves once every
 * browser has connected and subscribed.
 */
export async function startBrowserFleet(url: string, token: string, thingNames: string[]): Promise<BrowserFleet> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'browser-fleet-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, FIELDLINK_BROWSER_FLEET: JSON.stringify({ url, token, thingNames }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T extends FleetMessage['type']>(type: T) =>
    new Promise<Extract<FleetMessage, { type: T }>>((resolve, reject) => {
      const onMessage = (message: FleetMessage) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<FleetMessage, { type: T }>);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`The browsers' process ended (${code})`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  await next('started');
  return {
    report: () => {
      const answer = next('report');
      child.send({ type: 'report' } satisfies FleetRequest);
      return answer;
    },
    close: async () => {
      if (child.connected) child.send({ type: 'close' } satisfies FleetRequest);
      await exited;
    },
  };
}
