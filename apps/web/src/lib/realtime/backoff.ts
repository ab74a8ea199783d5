/** First reconnect waits about this long; each failure doubles it up to {@link RECONNECT_MAX_MS}. */
export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * Delay before reconnect attempt `attempt` (1 for the first): exponential, capped, with "equal
 * jitter" (half fixed, half random) so that a server restart is not followed by every browser
 * reconnecting in the same instant, yet no browser retries at once in a tight loop.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** exponent);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
