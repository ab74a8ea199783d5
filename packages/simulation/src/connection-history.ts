import type { ConnectionChange } from '@fieldlink/domain/reports';
import { SeededRandom } from './seeded-random';

const DAY_MS = 86_400_000;
/** A simulated device drops off the network about once every few days. */
const OUTAGES_PER_DAY = 0.3;
/** An outage lasts from two minutes to an hour and a half (a cell handover, a power cut). */
const OUTAGE_MS = { min: 120_000, max: 5_400_000 } as const;

/**
 * The connection history of a simulated device over [from, to): connected from `from`, with a few
 * short outages (seeded, so a device's history is the same on every start), and disconnected at
 * `to`, when the installation starts and the fleet connects again. It spans the plant history the
 * demo seeds, so a report of the last days reads a plausible uptime (98-100 %) rather than the
 * minutes since the server started (issue 35 item 10).
 */
export function connectionHistory(seed: number, from: number, to: number): ConnectionChange[] {
  if (to <= from) return [];
  const random = new SeededRandom(seed ^ 0x5eed_c0de);
  const changes: ConnectionChange[] = [{ t: from, connected: true }];
  const meanGap = DAY_MS / OUTAGES_PER_DAY;
  let t = from;
  for (;;) {
    t += Math.round(random.between(0.2, 1.8) * meanGap);
    const back = t + Math.round(random.between(OUTAGE_MS.min, OUTAGE_MS.max));
    if (back >= to) break;
    changes.push({ t, connected: false }, { t: back, connected: true });
    t = back;
  }
  changes.push({ t: to, connected: false });
  return changes;
}
