import fp from 'fastify-plugin';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    /** The installation's settings (config.ts), read once at start. */
    config: Config;
    /** The clock of the jobs table, schedules, limits and links: `Date.now` unless a test moves it. */
    clock: () => number;
  }
}

/** The settings and the clock every other plugin reads: registered first. */
export const settingsPlugin = fp<{ config: Config; now?: () => number }>(
  async (app, { config, now = Date.now }) => {
    app.decorate('config', config);
    app.decorate('clock', now);
  },
  { name: 'settings' },
);
