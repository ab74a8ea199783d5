import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { otaRoutes } from './routes';
import { OtaService, type OtaOptions } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Over-the-air updates: submission, approval, paced rollouts, progress. */
    ota: OtaService;
  }
}

/** Options: the timings of rollouts (tests shorten them). */
export const otaPlugin = fp<{ timings?: OtaOptions }>(
  async (app, { timings }) => {
    const { db } = app.storage;
    const ota = new OtaService(
      { db, jobs: app.jobs, commands: app.commands, events: app.events, logger: app.log, webhooks: app.webhooks },
      timings,
    );
    app.ingest.otaReports = (device, frame) => ota.report(device, frame);
    app.decorate('ota', ota);
    app.shutdown.add('ota', () => ota.stop());
    await registerApiRoutes(app, (api) => api.register(otaRoutes, { ota }));
  },
  { name: 'ota', dependencies: ['storage', 'auth', 'shutdown', 'jobs', 'ingest', 'webhooks'] },
);
