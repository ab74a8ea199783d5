import { clockPastFactorySprays } from '@fieldlink/simulation/sprayer';
import type { RunningServer } from './harness';

/**
 * The demo sprayers run their factory schedules (06:00 Monday to Saturday and 18:30 daily, UTC) on
 * clocks that follow the wall clock: a CI run that crossed 06:00 saw a card the test had just found
 * idle start spraying on its own. A test that needs its sprayers to change only as it tells them
 * first moves each one's clock (the harness's device clock) past any factory spray under way or due
 * within `windowMs`; that spray runs, in simulated time, before the test begins.
 */
export async function passScheduledSprays(
  server: RunningServer,
  thingNames: readonly string[],
  windowMs = 15 * 60_000,
): Promise<void> {
  for (const thingName of thingNames) {
    const past = clockPastFactorySprays(await server.deviceClock(thingName), windowMs);
    if (past !== null) await server.deviceClock(thingName, past);
  }
}
