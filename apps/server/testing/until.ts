/**
 * Waits until the check passes, polling every `intervalMs` (50 ms unless a check is costly, such as
 * an HTTP call); throws after the timeout, naming `what` when given. The one way a test outside the
 * browser waits: for a condition, never for a fixed time.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  { intervalMs = 50, what = 'Condition' }: { intervalMs?: number; what?: string } = {},
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${what} not met in ${timeoutMs} ms`);
}
