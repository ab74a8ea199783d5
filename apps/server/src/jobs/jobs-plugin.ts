import fp from 'fastify-plugin';
import { JobQueue } from './job-queue';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background jobs table: features register their kinds; started once every plugin is in. */
    jobs: JobQueue;
  }
}

export const jobsPlugin = fp(
  async (app) => {
    const jobs = new JobQueue(app.storage.db, app.storage.dialect, app.config.instanceId, app.log, { now: app.clock });
    app.decorate('jobs', jobs);
    app.shutdown.add('jobs', () => jobs.stop());
  },
  { name: 'jobs', dependencies: ['settings', 'storage', 'shutdown'] },
);
