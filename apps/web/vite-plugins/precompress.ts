import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files the server sends compressed when the browser accepts it (the console's text). */
const COMPRESSIBLE = /\.(js|css|html|svg|webmanifest)$/;
/** Below about one network packet compression saves no round trip (as the server's JSON threshold). */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every built text file, once, at the highest
 * effort: the server sends them as they are (`@fastify/static`'s `preCompressed`) instead of the raw
 * file, so a first visit downloads about a third of the bytes without the server compressing per
 * request. After every other plugin has written its files (the service worker gets its precache list
 * in `generateBundle`), so each copy holds the final text.
 */
export function precompressPlugin(): Plugin {
  return {
    name: 'fieldlink-precompress',
    apply: 'build',
    writeBundle: {
      order: 'post',
      async handler(options, bundle) {
        const dir = options.dir ?? 'dist';
        const names = [...Object.keys(bundle), 'index.html'].filter(
          (name, index, all) => COMPRESSIBLE.test(name) && all.indexOf(name) === index,
        );
        await Promise.all(
          names.map(async (name) => {
            const file = path.join(dir, name);
            const text = await readFile(file).catch(() => null);
            if (!text || text.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(text, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
                },
              }),
              gzipAsync(text, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
          }),
        );
      },
    },
  };
}
