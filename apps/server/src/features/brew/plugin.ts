import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { brewRoutes } from './routes';
import { BrewService } from './service';
import { BrewTankTracker } from './tank-tracker';

declare module 'fastify' {
  interface FastifyInstance {
    /** Brewing: tanks, batches, reports. */
    brew: BrewService;
    /** Follows running batches' tank states and gravity freeze from the samples this instance stores. */
    brewTanks: BrewTankTracker;
  }
}

export const brewPlugin = fp(
  async (app) => {
    const { config } = app;
    const brew = new BrewService({
      db: app.storage.db,
      events: app.events,
      jobs: app.jobs,
      files: app.files,
      links: app.fileLinks,
      productName: config.productName,
      defaultTheme: config.defaultTheme,
      reportRetentionDays: config.batchReportRetentionDays,
      now: app.clock,
    });
    brew.startRetention(config.batchReportRetentionMinutes);
    const brewTanks = new BrewTankTracker(app.storage.db, app.events, app.log, (deviceId) => brew.announce(deviceId));
    await brewTanks.start();
    app.decorate('brew', brew);
    app.decorate('brewTanks', brewTanks);
    app.shutdown.add('brewTanks', () => brewTanks.stop());
    app.shutdown.add('brewRetention', () => brew.stopRetention());
    await registerApiRoutes(app, (api) => api.register(brewRoutes, { brew }));
  },
  { name: 'brew', dependencies: ['settings', 'storage', 'auth', 'shutdown', 'jobs', 'ingest', 'files'] },
);
