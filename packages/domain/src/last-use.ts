/**
 * When the last use of an API token (issue 38 item 3) or the last sight of a session (item 4) is
 * written down: at most once a minute, so a busy integration or a console polling every few seconds
 * does not write on every call, and "last used" is still right to the minute.
 */
export const LAST_USE_INTERVAL_MS = 60_000;

/** True when a use now should be written down: never written, or written long enough ago. */
export function isLastUseDue(lastUsedAt: number | null, now: number): boolean {
  return lastUsedAt === null || now - lastUsedAt >= LAST_USE_INTERVAL_MS;
}
