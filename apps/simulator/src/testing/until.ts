/**
 * Waits until the condition holds, checking every 20 ms; throws after the timeout. The simulator's
 * tests wait for conditions, never for a fixed time (the server's `until` is out of this app's reach:
 * apps stay apart).
 */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for a condition.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
