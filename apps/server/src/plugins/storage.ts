import fp from 'fastify-plugin';
import type { Storage } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

/** Makes the opened database available as `app.storage`, closed as the app's last shutdown step. */
export const storagePlugin = fp<{ storage: Storage }>(
  async (app, { storage }) => {
    app.decorate('storage', storage);
    app.shutdown.add('storage', () => storage.close());
  },
  { name: 'storage', dependencies: ['shutdown'] },
);
