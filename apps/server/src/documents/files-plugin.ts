import fp from 'fastify-plugin';
import { installationSecret } from '../security/installation';
import { registerApiRoutes } from '../plugins/api-routes';
import { FileLinks } from './file-links';
import { fileRoutes } from './file-routes';
import { FileStore } from './file-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** Generated documents' files. */
    files: FileStore;
    /** Their short-lived signed links. */
    fileLinks: FileLinks;
  }
}

export const filesPlugin = fp(
  async (app) => {
    const { db } = app.storage;
    const files = new FileStore(db, app.clock);
    const fileLinks = new FileLinks(await installationSecret(db, 'file_link_secret'), app.clock);
    app.decorate('files', files);
    app.decorate('fileLinks', fileLinks);
    await registerApiRoutes(app, (api) => api.register(fileRoutes, { files, links: fileLinks }));
  },
  { name: 'files', dependencies: ['settings', 'storage', 'auth'] },
);
