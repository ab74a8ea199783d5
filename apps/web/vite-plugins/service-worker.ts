import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** Token in the service worker source replaced at build time by the precache manifest (a JSON string). */
export const PRECACHE_MANIFEST_TOKEN = '__FIELDLINK_PRECACHE_MANIFEST__';

interface ServiceWorkerPluginOptions {
  /** Service worker source, relative to the app root. */
  entry: string;
  /** Output file name; served from the site root so its scope covers the whole app. */
  fileName?: string;
}

/**
 * Builds the service worker as its own chunk with a fixed name (a hashed name would give every
 * release a new scope) and writes the list of shell assets into it. The worker imports nothing, so
 * the chunk is a plain script. Nothing is emitted in development: the dev server has no stable
 * assets to cache, and a worker there only serves stale modules.
 */
export function serviceWorkerPlugin(options: ServiceWorkerPluginOptions): Plugin {
  const fileName = options.fileName ?? 'sw.js';
  return {
    name: 'fieldlink-service-worker',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: options.entry, fileName });
    },
    generateBundle: {
      // After Vite's own CSS plugin, which deletes the chunks that held only CSS: listed before that,
      // such a chunk made `cache.addAll` fail with a 404, so the worker never installed.
      order: 'post',
      handler(_options, bundle) {
        const worker = bundle[fileName];
        if (!worker || worker.type !== 'chunk') {
          this.error(`service worker chunk ${fileName} was not built`);
        }
        const urls = Object.keys(bundle)
          .filter((name) => name !== fileName && !name.endsWith('.map') && !name.endsWith('.webmanifest'))
          .filter((name) => /\.(js|css|html|svg|png|woff2?|ico)$/.test(name))
          .map((name) => (name === 'index.html' ? '/' : `/${name}`))
          .sort();
        const version = createHash('sha256').update(urls.join('\n')).digest('hex').slice(0, 12);
        const manifest = JSON.stringify({ version, urls });
        const pattern = new RegExp(`(["'\`])${PRECACHE_MANIFEST_TOKEN}\\1`, 'g');
        if (!pattern.test(worker.code)) this.error(`service worker does not contain ${PRECACHE_MANIFEST_TOKEN}`);
        worker.code = worker.code.replace(pattern, () => JSON.stringify(manifest));
      },
    },
  };
}
