import type { Kysely } from 'kysely';
import { createModel } from '@fieldlink/simulation/create-model';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import { RETAIL_OVERVIEW_DAYS } from '@fieldlink/domain/retail';
import type { Database } from '../db/schema';
import { shelfChannelsOf } from '../features/inventory/mapper';
import { recordShelfReadings } from '../features/inventory/shelf-tracker';
import type { DemoDeviceKind } from './demo-data';

const STEP_SECONDS = 60;
const SAMPLE_EVERY_STEPS = 5;
const ROWS_PER_INSERT = 2000;

/**
 * Fills the log with `days` of history from each demo device's plant model (one sample every 5
 * minutes), so a fresh installation's charts already show days of plant behaviour. Smart shelves
 * get at least the 14 days the retail overview shows, their planogram (the channels their `config`
 * frame will report), and their stock followed through that history as live readings are.
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
    const deviceDays = device.kind === 'retailShelf' ? Math.max(days, RETAIL_OVERVIEW_DAYS) : days;
    const model = createModel(device.kind, {
      seed: seedFromText(device.thingName),
      startTimeMs: now - deviceDays * 86_400_000,
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
    if (device.kind === 'retailShelf') await followShelf(db, deviceId, model.channels, batch);
  }
  return rows;
}

/** Stores a shelf's planogram as its config frame reports it, and folds its history into its stock. */
async function followShelf(
  db: Kysely<Database>,
  deviceId: string,
  channels: ReturnType<typeof createModel>['channels'],
  samples: readonly { code: string; t: number; value: number }[],
): Promise<void> {
  const configured = JSON.stringify(
    channels.map(({ code, name, alarm, product }) => ({
      code,
      name,
      upload: true,
      alarm: alarm ?? false,
      ...(product ? { product } : {}),
    })),
  );
  await db.updateTable('devices').set({ channels: configured }).where('id', '=', deviceId).execute();
  const readings: Record<string, { t: number; value: number }[]> = {};
  for (const { code, t, value } of samples) (readings[code] ??= []).push({ t, value });
  await recordShelfReadings(db, deviceId, shelfChannelsOf(configured), readings);
}
