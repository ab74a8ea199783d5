import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './vite-plugins/precompress.ts';
import { routeChunkGroup } from './vite-plugins/route-chunks.ts';
import { serviceWorkerPlugin } from './vite-plugins/service-worker.ts';

// The API and the real-time socket live on the Fastify server; in development Vite proxies both so
// the browser sees one origin, as it does in production where the server also serves dist/.
const API_TARGET = process.env.FIELDLINK_API ?? 'http://localhost:8080';

// Where the built console calls the API when it is not its own origin (README "Configuration"): only
// these three names reach the browser's code, never the rest of the environment.
const API_ADDRESS_SETTINGS = ['FIELDLINK_API_HOST', 'FIELDLINK_API_DEV_HOST', 'FIELDLINK_API_NEXT_SUBDOMAINS'];

export default defineConfig({
  plugins: [react(), serviceWorkerPlugin({ entry: 'src/sw/service-worker.ts' }), precompressPlugin()],
  define: Object.fromEntries(
    API_ADDRESS_SETTINGS.map((name) => [`import.meta.env.${name}`, JSON.stringify(process.env[name] ?? '')]),
  ),
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No source maps in the production build: served, they would publish the console's source (the
    // server refuses `.map` files besides). `vite dev` has them.
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries in chunks of their own: they change far less often than the app, so a release
        // leaves them in the browser (and service worker) cache.
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'vendor-router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'vendor-query', test: /node_modules[\\/]@tanstack[\\/]/ },
            // Demo mode (the /demo console and the simulation of a demo account's devices) in one chunk
            // of its own, loaded only when a demo runs: a signed-in customer's pages never fetch it.
            {
              name: 'demo-mode',
              test: /apps[\\/]web[\\/]src[\\/]features[\\/]demo[\\/]|packages[\\/]simulation[\\/]/,
              // Only the demo's own modules: what they share with the console stays in the console's chunks.
              includeDependenciesRecursively: false,
            },
            // The signed-in path to the first page (/loading, the shell, the device list) in a few chunks
            // instead of dozens of small ones (vite-plugins/route-chunks.ts).
            routeChunkGroup(),
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false, ws: true },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false, ws: true },
    },
  },
});
