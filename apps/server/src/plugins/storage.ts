import fp from 'fastify-plugin';
import type { Storage } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

/** Makes the opened database available as `app.storage` (closed by the app's shutdown hook). */
export const storagePlugin = fp<{ storage: Storage }>(
  async (app, { storage }) => {
    app.decorate('storage', storage);
  },
  { name: 'storage' },
);
