import type { Kysely } from 'kysely';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import { BrewTank } from '@fieldlink/simulation/brew-tank';
import { demoBreweryTank, tankBatchState } from '@fieldlink/simulation/demo-brewery';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import type { Database } from '../db/schema';
import { newId } from '../security/secrets';
import { FileStore } from '../documents/file-store';
import { BrewReportWriter, batchReportFileName } from '../features/brew/report';
import { DEMO_CUSTOMERS } from './demo-data';

const BREWER = 'brew@fieldlink.test';

/** The brewery's tanks (thing names), in its account's order: what each holds is `demoBreweryTank`'s. */
const TANKS = DEMO_CUSTOMERS.filter((account) => account.key === 'brew')
  .flatMap((account) => account.groups.flatMap((group) => group.devices))
  .flatMap((device) => (device.kind === 'brewTank' ? [device.thingName] : []));

/**
 * The demo brewery (Northgate Brewing, group Cellar), the story of `demoBreweryTank` that the browser's
 * demo tells too, stored as rows: each fermenter runs the batch its simulated tank is fermenting; the
 * bright tank holds a finished batch with its report, written as the document runner writes one.
 */
export async function seedDemoBrew(
  db: Kysely<Database>,
  now = Date.now(),
  liveModels?: ReadonlyMap<string, DeviceModel>,
): Promise<void> {
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'thing_name', 'custom'])
    .where('thing_name', 'in', TANKS)
    .execute();
  const files = new FileStore(db);
  const reports = new BrewReportWriter(db, { productName: 'Fieldlink', defaultTheme: 'DEFAULT' });
  for (const device of devices) {
    // The same plant the fleet runs for this device: the model the demo history left (the fleet carries
    // on from it), else a new one from now (apps/simulator seeds it the same way). The batch's fill, CO2
    // total at the start and gravity are that plant's, so the console's estimate follows the live values.
    const carried = liveModels?.get(device.thing_name);
    const model =
      carried instanceof BrewTank ? carried : new BrewTank({ seed: seedFromText(device.thing_name), startTimeMs: now });
    const place = { index: TANKS.indexOf(device.thing_name), tankCount: TANKS.length };
    const tank = demoBreweryTank({ state: tankBatchState(model), custom: device.custom }, place, now, () => newId());
    const { batch } = tank;
    await db
      .insertInto('brew_tanks')
      .values({
        device_id: device.id,
        capacity: tank.capacity,
        co2_total_gain: tank.co2TotalGain,
        tank_level: JSON.stringify(tank.tankLevel),
        updated_by: BREWER,
        updated_at: now,
      })
      .execute();
    const id = newId();
    const props = JSON.stringify(batch.props);
    await db
      .insertInto('brew_batches')
      .values({
        id,
        device_id: device.id,
        is_demo: 0,
        channels_map: JSON.stringify(batch.channelsMap),
        co2_total_gain: batch.calibration.co2TotalGain,
        tank_level: JSON.stringify(batch.calibration.tankLevel),
        pressurized_at: batch.pressurizedAt,
        frozen_gravity: batch.frozenGravity,
        created_by: BREWER,
        created_at: now,
        state: batch.state,
        start_at: batch.date.start,
        end_at: batch.date.end,
        props,
        transitions: JSON.stringify(batch.transitions),
        tank_level_at_ferm_start: batch.tankLevelAtFermStart,
        co2_total_at_start: batch.co2TotalAtStart,
      })
      .execute();
    await db
      .insertInto('brew_gravities')
      .values(
        batch.gravities.map(({ id: itemId, value, timestamp }) => ({
          id: itemId,
          batch_id: id,
          value,
          t: timestamp,
          created_by: BREWER,
        })),
      )
      .execute();
    await db
      .insertInto('brew_sensories')
      .values(
        batch.sensories.map(({ id: itemId, ratings, notes, timestamp }) => ({
          id: itemId,
          batch_id: id,
          ratings: JSON.stringify(ratings),
          notes,
          t: timestamp,
          created_by: BREWER,
        })),
      )
      .execute();
    if (batch.annotations.length > 0) {
      await db
        .insertInto('brew_annotations')
        .values(
          batch.annotations.map(({ id: itemId, kind, text, timestamp, color, channelCode, sensoryId }) => ({
            id: itemId,
            batch_id: id,
            kind,
            text,
            t: timestamp,
            color,
            channel_code: channelCode,
            sensory_id: sensoryId,
          })),
        )
        .execute();
    }
    if (batch.date.end === null) continue;
    // The finished batch's report, written as the document runner writes one, so it is ready from the start.
    const file = await files.create(batchReportFileName({ props, start_at: batch.date.start }), 'application/pdf');
    await reports.write(id, BREWER, file);
    const stored = await file.finish();
    await db
      .insertInto('brew_reports')
      .values({
        id: newId(),
        batch_id: id,
        state: 'READY',
        error: null,
        file_id: stored.id,
        created_by: BREWER,
        created_at: batch.date.end,
        generated_at: batch.date.end,
      })
      .execute();
  }
}
