import { describe, expect, it } from 'vitest';
import type { Batch, BatchProps, Tank } from '@fieldlink/api/brew';
import { annotationColor, tankLogQuery } from '@fieldlink/domain/brew';
import { BatchListStore, type BatchListFleet, type BatchListRecords } from './batch-list-store';
import { BrewCalls, type BrewDevice, type StoredItem } from './brew-service';

const NOW = Date.UTC(2026, 10, 25, 9);
const HOUR = 3_600_000;
const PROPS: BatchProps = {
  beerName: 'Test IPA',
  style: 'IPA',
  originalGravity: 1.06,
  targetGravity: 1.012,
  notes: '',
};
const RATINGS = { aroma: 4, flavor: 4, mouthfeel: 3, appearance: 3, overall: 4, carbonation: 2 };

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Group = { id: string; name: string };
type Device = BrewDevice & { latest: Record<string, number> };

const device = (id: string, name: string, extra: Partial<Device> = {}): Device => ({
  id,
  thingName: id,
  name,
  isConnected: true,
  custom: 'Vats 4.2',
  registers: {},
  base: 'BREW',
  tags: [],
  latest: { a1: 1.2, t1: 5000, t10: 18, c2: 1, c3: 3 },
  ...extra,
});

const FLEET: BatchListFleet<Group, Device> = {
  group: (groupId) => (groupId === 'cellar' ? { id: 'cellar', name: 'Cellar' } : undefined),
  devicesOf: async (groupId) =>
    groupId === 'cellar'
      ? [
          device('fv1', 'Fermenter 1'),
          device('fv2', 'Fermenter 2'),
          // A chiller is no tank: it is not numbered.
          device('ch1', 'Chiller', { base: 'FILTEC', tags: [] }),
          device('bt1', 'Bright tank', { base: null, tags: [{ key: 'vessel', value: 'bright tank' }] }),
        ]
      : [],
  latest: (entry, code) => entry.latest[code],
  channelLogs: async (deviceId, { start, end, binCount, channels }) =>
    ({
      deviceId,
      start,
      end,
      binCount,
      binWidth: 1,
      channels: Object.fromEntries(channels.map((code) => [code, { t: [], min: [], max: [], avg: [] }])),
    }) as unknown as NonNullable<Tank['rawDeviceLogs']>,
};

/** The brewing calls' storage in memory (the demo's store), recording what the calls write and announce. */
function memoryStore() {
  const records: BatchListRecords = { tanks: [], batches: [] };
  const written: string[] = [];
  const calibrated: Tank[] = [];
  let ids = 0;
  const store = new (class extends BatchListStore<Group, Device> {
    override async changed(batchId: string) {
      written.push(`announce ${batchId}`);
      return super.changed(batchId);
    }
    override calibrated(_group: Group, _tank: unknown, view: Tank) {
      calibrated.push(view);
    }
  })(records, FLEET, {
    refusal: (status, message) => new Refusal(status, message),
    newId: (kind) => `${kind}-${(ids += 1)}`,
    written: async (change) => void written.push(change),
    isDemo: false,
  });
  return { store, records, written, calibrated };
}

/** The calls over a fresh store at `now`, with a batch running on tank 1 started an hour before. */
async function cellar(now = NOW) {
  const { store, ...memory } = memoryStore();
  const calls = (at = now) => new BrewCalls(store, () => at);
  const running = await calls(now - HOUR).start({ groupId: 'cellar', tankNumber: 1, props: PROPS });
  memory.written.length = 0;
  return { store: memory, calls, running };
}

async function refusalOf(call: Promise<unknown>): Promise<[number, string] | 'answered'> {
  return call.then(
    () => 'answered' as const,
    (error: unknown) => {
      if (!(error instanceof Refusal)) throw error;
      return [error.status, error.message];
    },
  );
}

describe('the brewing calls', () => {
  it('number the fermentation vessels of a group and show each, the selected one with its running batch’s log', async () => {
    const { calls, running } = await cellar();
    const meta = await calls().overview({ groupId: 'cellar', tankNumber: 1 });
    expect(meta).toMatchObject({ groupId: 'cellar', groupName: 'Cellar', selectedBrewTankNumber: 1 });
    expect(meta.tanks.map((tank) => [tank.tankNumber, tank.name, tank.state, tank.batchInfo?.id ?? null])).toEqual([
      [1, 'Fermenter 1', 'FILLING', running.id],
      [2, 'Fermenter 2', 'IDLE', null],
      [3, 'Bright tank', 'IDLE', null],
    ]);
    // The window and channels of domain `tankLogQuery`, read by the store.
    const { channels, start, end, binCount } = tankLogQuery(running.channelsMap, running.date, NOW);
    expect(meta.tanks[0]!.rawDeviceLogs).toMatchObject({ deviceId: 'fv1', start, end, binCount });
    expect(Object.keys(meta.tanks[0]!.rawDeviceLogs!.channels)).toEqual(channels);
    expect(meta.tanks.slice(1).map((tank) => tank.rawDeviceLogs)).toEqual([null, null]);
  });

  it('start a batch with the tank’s readings and settings, write it, and answer it as stored', async () => {
    const { store, calls } = await cellar();
    store.records.tanks.push({ deviceId: 'fv2', capacity: 1000, co2TotalGain: 2, tankLevel: null });
    const batch = await calls().start({ groupId: 'cellar', tankNumber: 2, props: PROPS });
    expect(batch).toMatchObject({
      deviceId: 'fv2',
      state: 'FILLING',
      date: { start: NOW, end: null },
      props: PROPS,
      co2TotalAtStart: 5000,
      calibration: { co2TotalGain: 2, tankLevel: null },
      transitions: [{ state: 'FILLING', timestamp: NOW }],
    });
    expect(store.written).toEqual([`insert ${batch.id}`, `announce ${batch.id}`]);
  });

  it('list the group’s batches newest first with their tank’s number and name', async () => {
    const { calls, running } = await cellar();
    const second = await calls().start({ groupId: 'cellar', tankNumber: 3, props: { ...PROPS, beerName: 'Lager' } });
    const { batches } = await calls().batches({ groupId: 'cellar' });
    expect(batches.map((line) => [line.id, line.tankNumber, line.tankName, line.props.beerName])).toEqual([
      [second.id, 3, 'Bright tank', 'Lager'],
      [running.id, 1, 'Fermenter 1', 'Test IPA'],
    ]);
  });

  it.each([
    [
      'a group that does not exist',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>) => calls.overview({ groupId: 'nope' }),
      [404, 'Group not found.'],
    ],
    [
      'the batches of a group that does not exist',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>) => calls.batches({ groupId: 'nope' }),
      [404, 'Group not found.'],
    ],
    [
      'a batch that does not exist',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>) => calls.batch('nope'),
      [404, 'Batch not found.'],
    ],
    [
      'a tank that does not exist',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>) =>
        calls.start({ groupId: 'cellar', tankNumber: 9, props: PROPS }),
      [404, 'Tank not found.'],
    ],
    [
      'a device that is no tank',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>) =>
        calls.start({ groupId: 'cellar', tankNumber: 4, props: PROPS }),
      [404, 'Tank not found.'],
    ],
    [
      'a second batch on a tank',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>) =>
        calls.start({ groupId: 'cellar', tankNumber: 1, props: PROPS }),
      [409, 'Tank 1 already has a batch running. End it first.'],
    ],
    [
      'calibrating a tank that does not exist',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>) =>
        calls.calibrate({ groupId: 'cellar', tankNumber: 9, calibration: { capacity: 1 } }),
      [404, 'Tank not found.'],
    ],
    [
      'a reading of an id the batch lacks',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) =>
        calls.putGravity({ batchId, id: 'nope', value: 1.02 }),
      [404, 'Gravity reading not found.'],
    ],
    [
      'a reading in the future',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) =>
        calls.putGravity({ batchId, value: 1.02, timestamp: NOW + 2 * HOUR }),
      [400, 'The time lies in the future.'],
    ],
    [
      'a reading before the batch began',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) =>
        calls.putGravity({ batchId, value: 1.02, timestamp: NOW - 2 * HOUR }),
      [400, 'The time lies before the batch started.'],
    ],
    [
      'a tasting note the batch lacks',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) =>
        calls.putSensory({ batchId, id: 'nope', ...RATINGS }),
      [404, 'Tasting note not found.'],
    ],
    [
      'an annotation the batch lacks',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) =>
        calls.putAnnotation({ batchId, id: 'nope', text: 'x' }),
      [404, 'Annotation not found.'],
    ],
    [
      'a channel annotation without a channel',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) =>
        calls.putAnnotation({ batchId, kind: 'channel', text: 'x' }),
      [400, 'A channel annotation needs a channel code.'],
    ],
    [
      'deleting a reading the batch lacks',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) =>
        calls.deleteItem({ batchId, id: 'nope' }, 'gravities'),
      [404, 'Gravity reading not found.'],
    ],
    [
      'taking back the end of a running batch',
      (calls: BrewCalls<Group, Device, Batch, StoredItem>, batchId: string) => calls.resume({ batchId }),
      [409, 'The batch has not ended.'],
    ],
  ] as const)('refuse %s, writing nothing', async (_name, call, expected) => {
    const { store, calls, running } = await cellar();
    expect(await refusalOf(call(calls(), running.id))).toEqual(expected);
    expect(store.written).toEqual([]);
  });

  it('merge batch info into what was kept', async () => {
    const { store, calls, running } = await cellar();
    const updated = await calls().update({ batchId: running.id, props: { notes: 'Dry hopped' } });
    expect(updated.props).toEqual({ ...PROPS, notes: 'Dry hopped' });
    expect(store.written).toEqual([`props ${running.id}`, `announce ${running.id}`]);
  });

  it('end a batch once, and take the end back only while its tank runs no other batch', async () => {
    const { store, calls, running } = await cellar();
    const ended = await calls().end({ batchId: running.id });
    expect(ended).toMatchObject({ state: 'MANUALLY_ENDED', date: { end: NOW } });
    expect(await refusalOf(calls().end({ batchId: running.id }))).toEqual([409, 'The batch has already ended.']);
    const resumed = await calls(NOW + 1).resume({ batchId: running.id });
    expect(resumed).toMatchObject({ state: 'FILLING', date: { end: null } });
    expect(resumed.transitions.map((entry) => entry.state)).toEqual(['FILLING', 'MANUALLY_ENDED', 'FILLING']);
    await calls(NOW + 2).end({ batchId: running.id });
    await calls(NOW + 3).start({ groupId: 'cellar', tankNumber: 1, props: PROPS });
    expect((await refusalOf(calls(NOW + 4).resume({ batchId: running.id })))[0]).toBe(409);
    expect(store.written.filter((entry) => entry.startsWith('resume'))).toEqual([`resume ${running.id}`]);
  });

  it('keep a reading at the time given, or now', async () => {
    const { calls, running } = await cellar();
    const given = await calls().putGravity({ batchId: running.id, value: 1.05, timestamp: NOW - HOUR / 2 });
    const now = await calls().putGravity({ batchId: running.id, value: 1.04 });
    expect(now.gravities.map((entry) => [entry.value, entry.timestamp])).toEqual([
      [1.05, NOW - HOUR / 2],
      [1.04, NOW],
    ]);
    expect(given.gravities[0]!.id).toBe(now.gravities[0]!.id);
  });

  it('mark a tasting note in blue, keep the mark when the note changes, refuse to edit or delete the mark alone', async () => {
    const { calls, running } = await cellar();
    const noted = await calls().putSensory({ batchId: running.id, ...RATINGS, notes: ' Citrus ' });
    const note = noted.sensories[0]!;
    expect(note.notes).toBe('Citrus');
    const mark = noted.annotations.find((entry) => entry.sensoryId === note.id)!;
    expect(mark).toMatchObject({ kind: 'plotLine', color: annotationColor(true), text: 'Tasting 3.6/5: Citrus' });
    const edited = await calls().putSensory({ batchId: running.id, id: note.id, ...RATINGS, notes: 'Pine' });
    expect(edited.annotations).toMatchObject([{ id: mark.id, text: 'Tasting 3.6/5: Pine' }]);
    expect(await refusalOf(calls().putAnnotation({ batchId: running.id, id: mark.id, text: 'x' }))).toEqual([
      400,
      'This annotation marks a tasting note: edit the note instead.',
    ]);
    expect(await refusalOf(calls().deleteItem({ batchId: running.id, id: mark.id }, 'annotations'))).toEqual([
      400,
      'This annotation marks a tasting note: delete the note instead.',
    ]);
    const cleared = await calls().deleteItem({ batchId: running.id, id: note.id }, 'sensories');
    expect([cleared.sensories, cleared.annotations]).toEqual([[], []]);
  });

  it('keep a grey annotation across the chart or on one channel', async () => {
    const { calls, running } = await cellar();
    const across = await calls().putAnnotation({ batchId: running.id, text: ' Dry hop ' });
    expect(across.annotations).toMatchObject([
      { kind: 'plotLine', text: 'Dry hop', channel: null, color: annotationColor(false) },
    ]);
    const onChannel = await calls().putAnnotation({ batchId: running.id, code: 't10', text: 'Cooling' });
    expect(onChannel.annotations[1]).toMatchObject({ kind: 'channel', channel: { code: 't10', deviceId: 'fv1' } });
  });

  it('delete a batch with all that belongs to it', async () => {
    const { store, calls, running } = await cellar();
    expect(await calls().remove({ batchId: running.id })).toEqual({ id: running.id });
    expect(store.records.batches).toEqual([]);
    expect(await refusalOf(calls().batch(running.id))).toEqual([404, 'Batch not found.']);
  });

  it('calibrate a tank: the values given replace those kept, the running batch takes them, the tank is shown', async () => {
    const { store, calls } = await cellar();
    store.records.tanks.push({ deviceId: 'fv1', capacity: 1000, co2TotalGain: 1.5, tankLevel: null });
    const tank = await calls().calibrate({ groupId: 'cellar', tankNumber: 1, calibration: { co2TotalGain: 2 } });
    expect(store.records.tanks).toEqual([{ deviceId: 'fv1', capacity: 1000, co2TotalGain: 2, tankLevel: null }]);
    expect(tank).toMatchObject({ tankNumber: 1, capacity: 1000, calibration: { co2TotalGain: 2 } });
    expect(tank.batchInfo?.calibration.co2TotalGain).toBe(2);
    expect(store.calibrated).toEqual([tank]);
  });
});
