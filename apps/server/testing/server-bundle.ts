import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { TestProject } from 'vitest/node';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Each module keeps its own `import.meta.url` and `import.meta.dirname` in the bundle: the server finds
 * its worker threads' entries, the built console and the docs beside its sources, wherever the bundle is.
 */
const keepImportMeta: Plugin = {
  name: 'keep-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))),
      loader: 'ts',
    }));
  },
};

/** The workspace's packages go into the bundle (they are TypeScript sources); every other package stays a package. */
const bundleWorkspaceOnly: Plugin = {
  name: 'bundle-workspace-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@fieldlink/') ? undefined : { external: true },
    );
  },
};

/**
 * The global set-up of the projects that start the server as a process (e2e, and the server files that
 * stop, restore or fail one: `startServerProcess`): bundles `apps/server/src/main.ts` once per run, so
 * each server starts by loading one module instead of tsx compiling and resolving about 400 (1.4 s of CPU
 * of about 5 s per start, docs/decisions.md "Issue 37 item 7 (round 6)"; 8.2-8.5 s against 11.7-12.6 s
 * of CPU for a start and stop at load 5, round 17). The code is the sources', unchanged: the worker
 * threads still load theirs through tsx. Removed at the end of the run.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // Inside the repository, so that the packages the bundle leaves out resolve from its node_modules.
  const directory = path.join(ROOT, 'node_modules', '.cache', 'fieldlink-server-bundle');
  const outfile = path.join(directory, `server-${project.name}-${process.pid}.mjs`);
  mkdirSync(directory, { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, 'apps/server/src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // A failure's stack names the source files and lines (`node --enable-source-maps`).
    sourcemap: true,
    plugins: [keepImportMeta, bundleWorkspaceOnly],
    logLevel: 'warning',
  });
  project.provide('serverBundle', outfile);
  return () => {
    rmSync(outfile, { force: true });
    rmSync(`${outfile}.map`, { force: true });
  };
}
