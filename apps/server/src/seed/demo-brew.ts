import type { Kysely } from 'kysely';
import {
  SENSORY_ANNOTATION_COLOR,
  ANNOTATION_COLOR,
  defaultChannelsMap,
  recordTransition,
} from '@fieldlink/domain/brew';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import { BrewTank } from '@fieldlink/simulation/brew-tank';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import type { Database } from '../db/schema';
import { newId } from '../security/secrets';
import { FileStore } from '../documents/file-store';
import { BrewReportWriter, batchReportFileName } from '../features/brew/report';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BREWER = 'brew@fieldlink.test';

/** What the demo brews in each tank that ferments (by thing name). */
const RUNNING: Record<string, { beerName: string; style: string; targetGravity: number }> = {
  'NGB-FV01': { beerName: 'Northgate Pils', style: 'German Pilsner', targetGravity: 1.009 },
  'NGB-FV02': { beerName: 'Harvest Amber', style: 'American Amber Ale', targetGravity: 1.012 },
};
const FINISHED_IN = 'NGB-BT01';

/**
 * The demo brewery (Northgate Brewing, group Cellar): each fermenter runs the batch its simulated tank
 * is fermenting, started when the model filled it, with the model's CO2 total then and its level
 * calibration, so the console's estimate follows the live fermentation; a reading, a tasting note and
 * an annotation each. The bright tank is empty (cleaning) and holds a finished batch with its report.
 */
export async function seedDemoBrew(
  db: Kysely<Database>,
  now = Date.now(),
  liveModels?: ReadonlyMap<string, DeviceModel>,
): Promise<void> {
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'thing_name', 'custom'])
    .where('thing_name', 'in', [...Object.keys(RUNNING), FINISHED_IN])
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
    await db
      .insertInto('brew_tanks')
      .values({
        device_id: device.id,
        capacity: 3500,
        co2_total_gain: 1,
        tank_level: JSON.stringify({ scale: Math.round(model.levelScale() * 10) / 10, offset: 0 }),
        updated_by: BREWER,
        updated_at: now,
      })
      .execute();
    const plan = RUNNING[device.thing_name];
    const tank = model.batch();
    const base = {
      device_id: device.id,
      is_demo: 0,
      channels_map: JSON.stringify(defaultChannelsMap(device.custom)),
      co2_total_gain: 1,
      tank_level: JSON.stringify({ scale: Math.round(model.levelScale() * 10) / 10, offset: 0 }),
      pressurized_at: null,
      frozen_gravity: null,
      created_by: BREWER,
      created_at: now,
    };
    if (plan) {
      const id = newId();
      const start = Math.round(tank.filledAt);
      const fermenting = Math.min(now, start + 5 * HOUR);
      let transitions = recordTransition([], 'FILLING', start);
      transitions = recordTransition(transitions, 'FILLED', start + HOUR);
      transitions = recordTransition(transitions, 'FERMENTING', fermenting);
      await db
        .insertInto('brew_batches')
        .values({
          ...base,
          id,
          state: 'FERMENTING',
          start_at: start,
          end_at: null,
          props: JSON.stringify({
            beerName: plan.beerName,
            style: plan.style,
            originalGravity: Math.round(tank.originalGravity * 1000) / 1000,
            targetGravity: plan.targetGravity,
            notes: 'Pitched at 12 °C, free rise to 14 °C after day 3.',
          }),
          transitions: JSON.stringify(transitions),
          tank_level_at_ferm_start: Math.round(tank.litres),
          co2_total_at_start: tank.co2TotalAtFill,
        })
        .execute();
      await db
        .insertInto('brew_gravities')
        .values({
          id: newId(),
          batch_id: id,
          value: Math.round(model.trueGravity() * 1000) / 1000,
          t: now - HOUR,
          created_by: BREWER,
        })
        .execute();
      const sensoryId = newId();
      const tasted = now - 2 * HOUR;
      await db
        .insertInto('brew_sensories')
        .values({
          id: sensoryId,
          batch_id: id,
          ratings: JSON.stringify({
            aroma: 4,
            flavor: 3.5,
            mouthfeel: 3.5,
            appearance: 3,
            overall: 3.5,
            carbonation: 1,
          }),
          notes: 'Sulfur fading, green apple still there.',
          t: tasted,
          created_by: BREWER,
        })
        .execute();
      await db
        .insertInto('brew_annotations')
        .values([
          {
            id: newId(),
            batch_id: id,
            kind: 'plotLine',
            text: 'Tasting 3.5/5: Sulfur fading, green apple still there.',
            t: tasted,
            color: SENSORY_ANNOTATION_COLOR,
            channel_code: null,
            sensory_id: sensoryId,
          },
          {
            id: newId(),
            batch_id: id,
            kind: 'plotLine',
            text: 'Yeast pitched',
            t: start + 30 * 60_000,
            color: ANNOTATION_COLOR,
            channel_code: null,
            sensory_id: null,
          },
        ])
        .execute();
      continue;
    }
    // A stout that finished in the bright tank two weeks ago.
    const id = newId();
    const start = now - 30 * DAY;
    const end = now - 16 * DAY;
    const props = JSON.stringify({
      beerName: 'Winter Stout',
      style: 'Oatmeal Stout',
      originalGravity: 1.062,
      targetGravity: 1.016,
      notes: 'Kegged and bottled on day 14.',
    });
    let transitions = recordTransition([], 'FILLING', start);
    transitions = recordTransition(transitions, 'FERMENTING', start + 6 * HOUR);
    transitions = recordTransition(transitions, 'MANUALLY_ENDED', end);
    await db
      .insertInto('brew_batches')
      .values({
        ...base,
        id,
        state: 'MANUALLY_ENDED',
        start_at: start,
        end_at: end,
        props,
        transitions: JSON.stringify(transitions),
        tank_level_at_ferm_start: 2400,
        co2_total_at_start: null,
      })
      .execute();
    await db
      .insertInto('brew_gravities')
      .values(
        [1.062, 1.041, 1.024, 1.017, 1.016].map((value, day) => ({
          id: newId(),
          batch_id: id,
          value,
          t: start + day * 3 * DAY + 2 * HOUR,
          created_by: BREWER,
        })),
      )
      .execute();
    await db
      .insertInto('brew_sensories')
      .values([
        {
          id: newId(),
          batch_id: id,
          ratings: JSON.stringify({
            aroma: 4,
            flavor: 4.5,
            mouthfeel: 4.5,
            appearance: 5,
            overall: 4.5,
            carbonation: 2.5,
          }),
          notes: 'Roast and chocolate, silky from the oats.',
          t: end - DAY,
          created_by: BREWER,
        },
      ])
      .execute();
    // Its report, written as the document runner writes one, so it is ready from the start.
    const file = await files.create(batchReportFileName({ props, start_at: start }), 'application/pdf');
    await reports.write(id, file);
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
        created_at: end,
        generated_at: end,
      })
      .execute();
  }
}
