import fp from 'fastify-plugin';

/**
 * The order in which a stopping server lets go of things: stop taking frames (TLS reloads, the
 * broker), write what is pending (commands cancelled, batches flushed, the SQLite writer and inbox
 * closed), stop the followers and timers that would queue more work, then the jobs, the documents,
 * metrics and mail, and the database last. Nothing acknowledged is lost (SECURITY.md 15); the
 * rolling-upgrade test holds it. One list, because Fastify runs plugins' own `onClose` hooks in
 * reverse registration order, which is not this order.
 */
export const SHUTDOWN_ORDER = [
  'tls',
  'broker',
  'ingest',
  'alarms',
  'shelves',
  'brewTanks',
  'ota',
  'logMaintenance',
  'brewRetention',
  'auditRetention',
  'jobs',
  'reports',
  'metrics',
  'mail',
  'storage',
] as const;

export type ShutdownStep = (typeof SHUTDOWN_ORDER)[number];

export interface Shutdown {
  /** Runs `stop` when the app closes, at `step`'s place in {@link SHUTDOWN_ORDER}. */
  add(step: ShutdownStep, stop: () => unknown): void;
  /** Runs every step in order: the app's `onClose` (see {@link startPlugin}). */
  run(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    shutdown: Shutdown;
  }
}

/** Takes each plugin's stop under its step; {@link startPlugin} runs them in order. */
export const shutdownPlugin = fp(
  async (app) => {
    const steps = new Map<ShutdownStep, (() => unknown)[]>(SHUTDOWN_ORDER.map((step) => [step, []]));
    app.decorate('shutdown', {
      add: (step, stop) => {
        steps.get(step)!.push(stop);
      },
      run: async () => {
        for (const step of SHUTDOWN_ORDER) {
          for (const stop of steps.get(step)!) await stop();
        }
      },
    } satisfies Shutdown);
  },
  { name: 'shutdown' },
);

/**
 * Registered last: starts the background jobs once every plugin is in, closes the real-time sockets
 * before the listener stops, and runs the shutdown steps in {@link SHUTDOWN_ORDER}.
 */
export const startPlugin = fp(
  async (app) => {
    app.jobs.start();
    app.addHook('preClose', () => app.hub.closeAll());
    app.addHook('onClose', () => app.shutdown.run());
  },
  { name: 'start', dependencies: ['shutdown', 'jobs', 'hub', 'broker'] },
);
