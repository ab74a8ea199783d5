import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { errorBody } from '../http-errors';

/**
 * Serves the built SPA; any other non-API GET answers index.html so client routes load directly.
 * Without a build (API tests), only the API is served.
 */
export const webPlugin = fp(
  async (app) => {
    const { webDist } = app.config;
    const index = path.join(webDist, 'index.html');
    const hasBuild = fs.existsSync(index);
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        // Source maps are not built for production (vite.config.ts); one left in the folder by a
        // development build is still not served: it would publish the console's source.
        allowedPath: (pathName) => !pathName.endsWith('.map'),
        // The build's brotli and gzip copies (apps/web/vite-plugins/precompress.ts) go to a browser that
        // accepts them: a third of the bytes on a first visit, and no compressing per request.
        preCompressed: true,
        // Hashed assets never change; the shell and service worker must be revalidated.
        setHeaders: (response, file) => {
          response.header(
            'cache-control',
            file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      // A missing asset is a 404 (the browser then offers a reload), never the shell in its place.
      const isAsset = request.url.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '');
      if (request.method !== 'GET' || request.url.startsWith('/api/') || !hasBuild || isAsset) {
        return reply.code(404).send(errorBody(404, `No route ${request.method} ${request.url.split('?')[0]}.`));
      }
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web', dependencies: ['settings'] },
);
