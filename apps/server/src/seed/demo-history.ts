import type { Kysely } from 'kysely';
import { connectionHistory } from '@fieldlink/simulation/connection-history';
import { createModel } from '@fieldlink/simulation/create-model';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import { RETAIL_OVERVIEW_DAYS, RETAIL_STORE_LOG_WINDOW_MS } from '@fieldlink/domain/retail';
import { insertLogs, rollUp, ROLLUP_LEVELS } from '../db/log-writes';
import type { Database, LogsTable } from '../db/schema';
import { shelfChannelsOf } from '../features/inventory/mapper';
import { recordShelfReadings } from '../features/inventory/shelf-tracker';
import { newId } from '../security/secrets';
import type { DemoDeviceKind } from './demo-data';

const DAY_MS = 86_400_000;
/** The last day is stepped every minute and sampled every 5 minutes, as the charts of a day look closely. */
const RECENT_DAYS = 1;
const RECENT_STEP_SECONDS = 60;
const RECENT_SAMPLE_EVERY_STEPS = 5;
/**
 * Older days are stepped and sampled every 30 minutes (a month's chart shows them as its bins of 22
 * minutes would): fewer model steps in all than three days of minutes, so a first start stays quick.
 */
const OLDER_STEP_SECONDS = 1800;
/** The demo device whose history reaches a year back, so its one-year chart has something to show. */
export const DEMO_YEAR_DEVICE = 'ACME-BLR01';
const YEAR_DAYS = 366;
/** Four weeks of samples, laid back over the year before them. */
const ARCHIVE_TILE_DAYS = 28;
/** The days of the store chart's window (domain `RETAIL_STORE_LOG_WINDOW_MS`). */
const RETAIL_STORE_DAYS = RETAIL_STORE_LOG_WINDOW_MS / DAY_MS;

/**
 * A smart shelf's days of history: the store chart's 90 when a demo's weeks of history are seeded
 * (a chart with data only in its last 30 days would mislead), else the 14 the retail overview needs
 * (a short history, as the end-to-end tests seed, stays quick to start).
 */
function shelfDays(days: number): number {
  return days >= RETAIL_OVERVIEW_DAYS ? Math.max(days, RETAIL_STORE_DAYS) : RETAIL_OVERVIEW_DAYS;
}

const ROWS_PER_INSERT = 2000;

/** One stored sample, as the log holds it. */
type Sample = LogsTable;

/**
 * Fills the log with `days` of history from each demo device's plant model (every 5 minutes over the
 * last day, every 30 minutes before), so a fresh installation's charts already show weeks of
 * plant behaviour. {@link DEMO_YEAR_DEVICE} reaches a year back: beyond `days` it keeps only hourly and
 * daily roll-ups (its first four weeks laid back over the year), as a device keeps once its samples
 * are past retention, so the year costs little to seed and to store. Each device's connection
 * history (`connectionHistory`: connected, with a few short outages) spans its logs. Smart shelves get
 * the 90 days the store's stock chart shows with a demo's weeks of history, else the 14 days of the
 * retail overview ({@link shelfDays}), their planogram (the channels their `config` frame will report),
 * and their stock followed through that history as live readings are. Each model, as the history leaves it, goes into `liveModels` when
 * given: the demo fleet carries on from there, so the live values continue the history without a jump.
 */
export async function seedDemoHistory(
  db: Kysely<Database>,
  devices: readonly { thingName: string; kind: DemoDeviceKind }[],
  days: number,
  now = Date.now(),
  liveModels?: Map<string, DeviceModel>,
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
    const deviceDays = device.kind === 'retailShelf' ? shelfDays(days) : days;
    // Samples start on a UTC day, so the roll-ups of an archive before them never share a bucket with them.
    const samplesFrom = Math.floor((now - deviceDays * DAY_MS) / DAY_MS) * DAY_MS;
    const model = createModel(device.kind, { seed: seedFromText(device.thingName), startTimeMs: samplesFrom });
    const batch: Sample[] = [];
    const sampleNow = () => {
      const t = Math.round(model.timeMs / 1000) * 1000;
      for (const [code, value] of Object.entries(model.values())) batch.push({ device_id: deviceId, code, t, value });
    };
    const recentFrom = now - RECENT_DAYS * DAY_MS;
    while (model.timeMs < recentFrom) {
      model.step(OLDER_STEP_SECONDS);
      sampleNow();
    }
    for (let step = 0; model.timeMs < now; step += 1) {
      model.step(RECENT_STEP_SECONDS);
      if (step % RECENT_SAMPLE_EVERY_STEPS === 0) sampleNow();
    }
    const archive = device.thingName === DEMO_YEAR_DEVICE ? yearArchive(batch, samplesFrom) : [];
    await db.transaction().execute(async (trx) => {
      // The archive straight into the roll-ups; the samples through the log, which rolls them up.
      for (const { table, width } of ROLLUP_LEVELS) {
        const rollups = rollUp(archive, width);
        for (let i = 0; i < rollups.length; i += ROWS_PER_INSERT) {
          await trx
            .insertInto(table)
            .values(rollups.slice(i, i + ROWS_PER_INSERT))
            .execute();
        }
      }
      await insertLogs(trx, batch);
      // Its connection history over the same span as its logs (the year device's from its archive):
      // without it every report's uptime counted only the minutes since the server started.
      const historyFrom = archive.length > 0 ? samplesFrom - YEAR_DAYS * DAY_MS : samplesFrom;
      const changes = connectionHistory(seedFromText(device.thingName), historyFrom, now);
      for (let i = 0; i < changes.length; i += ROWS_PER_INSERT) {
        await trx
          .insertInto('connections')
          .values(
            changes
              .slice(i, i + ROWS_PER_INSERT)
              .map(({ t, connected }) => ({ id: newId(), device_id: deviceId, t, connected: connected ? 1 : 0 })),
          )
          .execute();
      }
    });
    rows += batch.length;
    liveModels?.set(device.thingName, model);
    if (device.kind === 'retailShelf') await followShelf(db, deviceId, model.channels, batch);
  }
  return rows;
}

/**
 * The year before the samples, as roll-ups only: the plant models integrate every few seconds, so a
 * simulated year would cost a first start half a minute. Instead the samples' first four weeks are
 * laid back week-true (weekdays on weekdays) until a year is covered, the way a plant repeats its month.
 */
function yearArchive(samples: readonly Sample[], samplesFrom: number): Sample[] {
  const tile = samples.filter((sample) => sample.t < samplesFrom + ARCHIVE_TILE_DAYS * DAY_MS);
  const yearFrom = samplesFrom - YEAR_DAYS * DAY_MS;
  const archive: Sample[] = [];
  for (let back = YEAR_DAYS - (YEAR_DAYS % ARCHIVE_TILE_DAYS); back > 0; back -= ARCHIVE_TILE_DAYS) {
    const shift = back * DAY_MS;
    for (const sample of tile) if (sample.t - shift >= yearFrom) archive.push({ ...sample, t: sample.t - shift });
  }
  return archive;
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
