import fp from 'fastify-plugin';
import { Mailer } from './mailer';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export const mailPlugin = fp(
  async (app) => {
    const { config } = app;
    const mailer = new Mailer(app.storage.db, config.smtpUrl, config.mailFrom, app.log, app.jobs, app.files);
    app.decorate('mailer', mailer);
    app.shutdown.add('mail', () => mailer.close());
  },
  { name: 'mail', dependencies: ['settings', 'storage', 'shutdown', 'jobs', 'files'] },
);
