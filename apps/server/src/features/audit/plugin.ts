import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { auditRoutes } from './routes';
import { AuditService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit trail: reading, verifying, retention. */
    audit: AuditService;
  }
}

export const auditPlugin = fp(
  async (app) => {
    const { config } = app;
    const audit = new AuditService({
      db: app.storage.db,
      jobs: app.jobs,
      retentionDays: config.auditRetentionDays,
      now: app.clock,
    });
    audit.startRetention(config.auditRetentionMinutes);
    app.decorate('audit', audit);
    app.shutdown.add('auditRetention', () => audit.stopRetention());
    await registerApiRoutes(app, (api) => api.register(auditRoutes, { audit }));
  },
  { name: 'audit', dependencies: ['settings', 'storage', 'auth', 'shutdown', 'jobs'] },
);
