import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { otaRoutes } from './routes';
import { OtaService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Over-the-air updates: submission, approval, paced rollouts, progress. */
    ota: OtaService;
  }
}

/** Rollouts paced by `app.launch.ota` (tests shorten the timings). */
export const otaPlugin = fp(
  async (app) => {
    const { db } = app.storage;
    const ota = new OtaService(
      { db, jobs: app.jobs, commands: app.commands, events: app.events, logger: app.log, webhooks: app.webhooks },
      app.launch.ota,
    );
    app.ingest.otaReports = (device, frame) => ota.report(device, frame);
    app.decorate('ota', ota);
    app.shutdown.add('ota', () => ota.stop());
    await registerApiRoutes(app, (api) => api.register(otaRoutes, { ota }));
  },
  { name: 'ota', dependencies: ['settings', 'storage', 'auth', 'shutdown', 'jobs', 'ingest', 'webhooks'] },
);
