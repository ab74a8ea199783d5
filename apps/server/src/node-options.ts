/**
 * The Node.js options the server is started with: `npm start`, `npm run dev`, the systemd unit of
 * docs/operations.md and the benchmark's server process give them all (a test holds the first three
 * to this list), and the server warns at start when one is missing.
 *
 * `--no-allocation-site-pretenuring`: V8 otherwise decides, from how many of them outlive a young
 * collection, to allocate the objects of a site straight into the old generation. Ingest's per-sample
 * objects live until their batch commits, so V8 sometimes takes that decision for them; the old
 * generation then grows by every sample until a full collection gives its pages back to the system,
 * and every page is touched fresh again: 0.027 minor page faults per data point on the main thread,
 * about 0.4 µs of CPU per data point on a machine whose page faults are slow (docs/decisions.md,
 * "Issue 41 item 3: the page faults of a server that keeps giving memory back").
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--no-allocation-site-pretenuring'];

/** The options of SERVER_NODE_OPTIONS this process was started without. */
export function missingServerNodeOptions(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_OPTIONS.filter((option) => !execArgv.includes(option));
}
