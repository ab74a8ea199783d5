import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { reportPublicRoutes, reportRoutes } from './routes';
import { ReportService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reports and report schedules. */
    reports: ReportService;
  }
}

export const reportsPlugin = fp(
  async (app) => {
    const { config } = app;
    const reports = new ReportService({
      db: app.storage.db,
      webhooks: app.webhooks,
      databaseUrl: config.databaseUrl,
      jobs: app.jobs,
      files: app.files,
      links: app.fileLinks,
      mailer: app.mailer,
      publicUrl: config.publicUrl,
      productName: config.productName,
      defaultTheme: config.defaultTheme,
      retentionDays: config.reportRetentionDays,
      notifyUsers: (action, audience) => app.hub.notifyUsers(action, audience),
      now: app.clock,
    });
    app.decorate('reports', reports);
    app.shutdown.add('reports', () => reports.close());
    await registerApiRoutes(app, async (api) => {
      await api.register(reportRoutes, { reports });
      await api.register(reportPublicRoutes, { reports, files: app.files });
    });
  },
  {
    name: 'reports',
    dependencies: ['settings', 'storage', 'auth', 'shutdown', 'jobs', 'files', 'mail', 'hub', 'webhooks'],
  },
);
