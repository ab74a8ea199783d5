import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pressureFromRaw } from '@fieldlink/domain/pressure-signal';
import { DIALECTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * A device configured to send its pressure transmitters' raw signals (channel config `signal: 'raw'`,
 * `fullScale`): ingest stores the pressures they stand for, through the 4 and 1 live zeros and the
 * 800000 scale switch (docs/decisions.md, issue 42 item 12).
 */
describe.each(DIALECTS)('raw transmitter signals on %s', (dialect) => {
  let t: TestApp;
  const THING = 'ACME-BLR01';
  const send = (frame: object) => t.app.ingest.handle(THING, Buffer.from(JSON.stringify(frame)));
  const stored = async (code: string) =>
    (
      await t.app.storage.db
        .selectFrom('logs')
        .innerJoin('devices', 'devices.id', 'logs.device_id')
        .select(['logs.t', 'logs.value'])
        .where('devices.thing_name', '=', THING)
        .where('logs.code', '=', code)
        .orderBy('logs.t')
        .execute()
    ).map(({ t: at, value }) => [Number(at), Number(value)]);

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('stores a raw channel’s readings as pressures, leaves other channels alone and drops faults', async () => {
    const t0 = Date.now() - 60_000;
    // Before the device says so, a reading is taken as it comes.
    await send({ v: 4, type: 'log', t: t0, values: { c2: 12_000 } });
    await send({
      v: 4,
      type: 'config',
      subtype: 'input',
      channels: [
        { code: 'c2', name: 'Head pressure', units: 'psi', config: { signal: 'raw', fullScale: 30 } },
        { code: 'c3', name: 'Line pressure', units: 'bar', config: { signal: 'raw', fullScale: 6 } },
      ],
    });
    await send({ v: 4, type: 'log', t: t0 + 1000, values: { c2: 12_000, c3: 3_000_000, c1: 21.5 } });
    await send({ v: 4, type: 'log', t: t0 + 2000, values: { c2: 3_000, c3: 5_000_000, c1: 22 } });

    await expect.poll(() => stored('c3'), { timeout: 10_000 }).toHaveLength(2);
    expect(await stored('c2')).toEqual([
      [t0, 12_000],
      [t0 + 1000, pressureFromRaw(12_000, 30)],
    ]);
    expect(pressureFromRaw(12_000, 30)).toBeCloseTo(15, 9);
    expect(await stored('c3')).toEqual([
      [t0 + 1000, pressureFromRaw(3_000_000, 6)],
      [t0 + 2000, pressureFromRaw(5_000_000, 6)],
    ]);
    expect(await stored('c1')).toEqual([
      [t0 + 1000, 21.5],
      [t0 + 2000, 22],
    ]);
  });

  it('reads the channels again when another instance of a cluster stored a config frame', async () => {
    const t0 = Date.now() - 30_000;
    await send({ v: 4, type: 'log', t: t0, values: { c4: 12_000 } });
    await expect.poll(() => stored('c4'), { timeout: 10_000 }).toEqual([[t0, 12_000]]);
    // Another instance stores the device's new channels and relays the event; this one's cached entry
    // is of the channels before.
    const channels = [{ code: 'c4', name: 'Tank pressure', units: 'bar', config: { signal: 'raw', fullScale: 6 } }];
    const { channels: before } = await t.app.storage.db
      .selectFrom('devices')
      .select('channels')
      .where('thing_name', '=', THING)
      .executeTakeFirstOrThrow();
    await t.app.storage.db
      .updateTable('devices')
      .set({ channels: JSON.stringify([...(JSON.parse(before) as object[]), ...channels]) })
      .where('thing_name', '=', THING)
      .execute();
    t.app.events.emit(
      { type: 'server/deviceConfig', thingName: THING, config: { subtype: 'input', channels } },
      'remote',
    );
    await send({ v: 4, type: 'log', t: t0 + 1000, values: { c4: 3_000_000 } });
    await expect.poll(() => stored('c4'), { timeout: 10_000 }).toHaveLength(2);
    expect(await stored('c4')).toEqual([
      [t0, 12_000],
      [t0 + 1000, pressureFromRaw(3_000_000, 6)],
    ]);
  });
});
