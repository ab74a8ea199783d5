import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canRollUpgrade,
  PREVIOUS_RELEASE,
  ROLL_BROWSERS,
  startRollingUpgrade,
  type RollingUpgrade,
} from '../../testing/cluster/rolling-upgrade';

/**
 * Issue 40 item 3: two instances of the previous release behind docs/haproxy/fieldlink-cluster.cfg
 * (Debian's HAProxy) on PostgreSQL and Mosquitto, with devices publishing and browsers holding the
 * real-time channel, are replaced one at a time by this release: SIGTERM, a new instance on the same
 * address, ready, the next. The first new instance migrates the schema while the previous release
 * still serves beside it. Nothing acknowledged is lost, no client gets a 5xx, every browser comes back.
 * The roll itself is apps/server/testing/cluster/rolling-upgrade.ts, shared with its benchmark stage.
 */
describe.skipIf(!canRollUpgrade())('a rolling upgrade behind HAProxy', () => {
  let roll: RollingUpgrade | undefined;

  beforeAll(async () => {
    roll = await startRollingUpgrade();
  }, 600_000);

  afterAll(async () => {
    await roll?.close();
  }, 120_000);

  it(`replaces each instance of ${PREVIOUS_RELEASE.slice(0, 7)} in turn, losing nothing and answering every request`, async () => {
    const result = await roll!.run();
    console.info(result.report.join('\n'));
    const errors = [...result.statuses].filter(([status]) => status >= 500 || status === 0);
    expect(errors, result.failures.join('\n')).toEqual([]);
    expect(result.statuses.get(200) ?? 0).toBeGreaterThan(100);
    // Every browser on a stopped instance came back. How fast (the goal: within 5 s each) is a time,
    // so it is measured by the benchmark stage `npm run bench -- --only rolling-upgrade`
    // (bench/src/rolling-upgrade.ts, docs/PERFORMANCE.md), not asserted here (issue 37 item 7).
    expect(result.outages.length).toBeGreaterThanOrEqual(ROLL_BROWSERS);
    expect(result.lost, `${result.lost} of ${result.acked} acknowledged frames not stored`).toBe(0);
    expect(result.acked).toBeGreaterThan(1000);
  }, 900_000);
});
