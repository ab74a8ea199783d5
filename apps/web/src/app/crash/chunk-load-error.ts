/**
 * True for a failed load of a code-split chunk (ChunkLoadError, specification §8): typically a new
 * release replaced the files this page was built against, or the network dropped. A reload fixes it;
 * an ordinary crash screen would not.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ChunkLoadError') return true;
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk .* failed/i.test(
    error.message,
  );
}
