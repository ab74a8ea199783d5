/**
 * Waits until the check passes, polling every 50 ms; throws after the timeout. The one way a server
 * test waits: for a condition, never for a fixed time.
 */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('Condition not met in time');
}
