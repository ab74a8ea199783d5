import type { Kysely } from 'kysely';
import { createModel } from '@fieldlink/simulation/create-model';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import type { Database } from '../db/schema';
import type { DemoDeviceKind } from './demo-data';

const STEP_SECONDS = 60;
const SAMPLE_EVERY_STEPS = 5;
const ROWS_PER_INSERT = 2000;

/**
 * Fills the log with `days` of history from each demo device's plant model (one sample every 5
 * minutes), so a fresh installation's charts already show days of plant behaviour.
 */
export async function seedDemoHistory(
  db: Kysely<Database>,
  devices: readonly { thingName: string; kind: DemoDeviceKind }[],
  days: number,
  now = Date.now(),
): Promise<number> {
  if (days <= 0) return 0;
  const ids = new Map(
    (await db.selectFrom('devices').select(['id', 'thing_name']).execute()).map((row) => [row.thing_name, row.id]),
  );
  let rows = 0;
  for (const device of devices) {
    const deviceId = ids.get(device.thingName);
    if (!deviceId) continue;
    // The fleet seeds each live device the same way, so history and live values come from one plant.
    const model = createModel(device.kind, {
      seed: seedFromText(device.thingName),
      startTimeMs: now - days * 86_400_000,
    });
    const batch: { device_id: string; code: string; t: number; value: number }[] = [];
    for (let step = 0; model.timeMs < now; step += 1) {
      model.step(STEP_SECONDS);
      if (step % SAMPLE_EVERY_STEPS !== 0) continue;
      const t = Math.round(model.timeMs / 1000) * 1000;
      for (const [code, value] of Object.entries(model.values())) batch.push({ device_id: deviceId, code, t, value });
    }
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < batch.length; i += ROWS_PER_INSERT) {
        await trx
          .insertInto('logs')
          .values(batch.slice(i, i + ROWS_PER_INSERT))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    });
    rows += batch.length;
  }
  return rows;
}
