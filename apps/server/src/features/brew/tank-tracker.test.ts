import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, BrewMeta, Tank } from '@fieldlink/api/brew';
import { BrewTank } from '@fieldlink/simulation/brew-tank';
import { demoFleet } from '../../seed/seed';
import { connectTestDevice } from '../../../testing/test-device';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * A batch followed on the server from its tank's live readings (issue 16): the simulator's
 * fermentation model (packages/simulation, as the demo fleet runs it) reports a whole batch hour by
 * hour over real MQTT, and the brew overview's estimate stays within 0.003 of the model's own gravity
 * until the tank is pressurized; then the estimate freezes, and the states the batch went through are
 * recorded with their times.
 */
describe.each(DIALECTS)('brew tanks followed from live data on %s', (dialect) => {
  let t: TestApp;
  let brewer: string;
  let client: MqttClient | undefined;

  const api = async <T>(method: 'GET' | 'PUT' | 'POST', url: string, data: object) => {
    const response = await t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: brewer },
      ...(method === 'GET' ? { query: data as Record<string, string> } : { payload: data }),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true });
    brewer = await signIn(t.app, 'brew@fieldlink.test');
  });
  afterAll(async () => {
    await client?.endAsync();
    await t?.close();
  });

  it('records the states with their times and freezes the estimate, within 0.003 of the model until then', async () => {
    const db = t.app.storage.db;
    const cellar = await db.selectFrom('groups').select('id').where('name', '=', 'Cellar').executeTakeFirstOrThrow();
    const overview = () => api<BrewMeta>('GET', '/brew/overview', { groupId: cellar.id });
    const free = (await overview()).tanks.find((tank) => tank.batchInfo === null)!;
    const password = (await demoFleet(db)).find((device) => device.thingName === free.thingName)!.password;
    // The demo seed gave the tank readings of today; this one reports from four weeks back.
    await db.deleteFrom('latest_values').where('device_id', '=', free.deviceId).execute();
    const device = await connectTestDevice(t.app, free.thingName, password, () => undefined);
    client = device.client;

    // The model from four weeks ago (at midnight, so the cellar's day cycle is the same each run),
    // run to a fresh fill: the batch to follow.
    const model = new BrewTank({ seed: 3, startTimeMs: Math.floor(Date.now() / DAY) * DAY - 28 * DAY });
    const previousFill = model.batch().filledAt;
    while (model.batch().filledAt === previousFill) model.step(600);
    const fill = model.batch();
    const map = free.channelsMap;
    const publish = async () => {
      const values = model.values();
      await device.publish({
        v: 4,
        type: 'log',
        t: Math.round(model.timeMs),
        values: {
          [map.upperPressure]: values.c2,
          [map.lowerPressure]: values.c3,
          [map.co2Flow]: values.a1,
          [map.co2Total]: values.t1,
          [map.temperature]: values.t10,
        },
      });
      await t.app.brewTanks.idle();
    };
    const tankNow = async (): Promise<Tank> =>
      (await overview()).tanks.find((tank) => tank.deviceId === free.deviceId)!;

    // The brewer calibrates the level and starts the batch on the filled tank's first reading.
    await api<Tank>('PUT', '/brew/tank/calibration', {
      groupId: cellar.id,
      tankNumber: free.tankNumber,
      calibration: { tankLevel: { scale: model.levelScale(), offset: 0 } },
    });
    await publish();
    const started = await api<Batch>('POST', '/brew/batch', {
      groupId: cellar.id,
      tankNumber: free.tankNumber,
      props: {
        beerName: 'Replay Lager',
        style: '',
        originalGravity: fill.originalGravity,
        targetGravity: null,
        notes: '',
      },
    });
    expect(Math.abs(started.tankLevelAtFermStart! - fill.litres)).toBeLessThan(fill.litres * 0.01);
    expect(started.co2TotalAtStart).toBe(Math.round(fill.co2TotalAtFill));
    // It was started when the tank was filled: the readings that follow replay the days since.
    const filledAt = Math.round(model.timeMs);
    await db
      .updateTable('brew_batches')
      .set({ start_at: filledAt, transitions: JSON.stringify([{ state: 'FILLING', timestamp: filledAt }]) })
      .where('id', '=', started.id)
      .execute();

    let compared = 0;
    let worst = 0;
    let lastEstimate: { t: number; gravity: number; truth: number } | null = null;
    let frozen: Tank | null = null;
    for (let hour = 1; hour <= 13 * 24 && !frozen; hour += 1) {
      model.step(HOUR / 1000);
      await publish();
      const tank = await tankNow();
      if (tank.gravityParameters.hasGravityFreezed) {
        frozen = tank;
        break;
      }
      const gravity = tank.gravityParameters.currentGravity!;
      worst = Math.max(worst, Math.abs(gravity - model.trueGravity()));
      lastEstimate = { t: Math.round(model.timeMs), gravity, truth: model.trueGravity() };
      compared += 1;
    }
    expect(compared).toBeGreaterThan(48);
    expect(worst).toBeLessThan(0.003);
    expect(frozen).not.toBeNull();

    // Pressurized an hour before the reading that showed it: the estimate froze as it stood then.
    const batch = frozen!.batchInfo!;
    expect(batch.pressurizedAt).toBe(lastEstimate!.t);
    expect(frozen!.gravityParameters.currentGravity).toBeCloseTo(lastEstimate!.gravity, 9);
    expect(Math.abs(frozen!.gravityParameters.currentGravity! - lastEstimate!.truth)).toBeLessThan(0.003);
    expect(frozen!.state).toBe('PRESSURIZED');
    const stored = await db
      .selectFrom('brew_batches')
      .select(['state', 'pressurized_at', 'frozen_gravity'])
      .where('id', '=', started.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ state: 'PRESSURIZED', pressurized_at: lastEstimate!.t });

    // The states it went through, each from when it began.
    const states = batch.transitions.map((transition) => transition.state);
    expect(states[0]).toBe('FILLING');
    expect(states).toContain('FERMENTING');
    expect(states.at(-1)).toBe('PRESSURIZED');
    expect(batch.transitions.at(-1)!.timestamp).toBe(batch.pressurizedAt);
    const times = batch.transitions.map((transition) => transition.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBe(filledAt);

    // Fermentation goes on under pressure; the estimate no longer moves.
    for (let hour = 0; hour < 3; hour += 1) {
      model.step(HOUR / 1000);
      await publish();
    }
    const later = await tankNow();
    expect(later.gravityParameters).toEqual(frozen!.gravityParameters);
    expect(later.batchInfo!.transitions).toEqual(batch.transitions);
  }, 240_000);
});
