import { describe, expect, it } from 'vitest';
import { annotationColor } from '@fieldlink/domain/brew';
import { BrewCalls } from '@fieldlink/services/brew-service';
import { demoBreweryStore, firstBreweryRecords, type BrewTankDevice, type DemoTankDevice } from './demo-brewery';
import { DemoCallError } from './demo-call-error';

const NOW = Date.UTC(2026, 10, 25, 9);
const HOUR = 3_600_000;
const PROPS = { beerName: 'Test IPA', style: 'IPA', originalGravity: 1.06, targetGravity: 1.012, notes: '' };

const tank = (thingName: string, name: string): BrewTankDevice => ({
  thingName,
  name,
  custom: 'Vats 4.2',
  registers: {},
  latest: {
    a1: { value: 1.2, t: NOW },
    t1: { value: 5000, t: NOW },
    t10: { value: 18, t: NOW },
    c2: { value: 1, t: NOW },
    c3: { value: 3, t: NOW },
  },
  tank: {
    filledAt: NOW - 3 * 24 * HOUR,
    originalGravity: 1.048,
    co2TotalAtFill: 1000,
    litres: 3000,
    levelScale: 220,
    trueGravity: 1.02,
  },
});
const TANKS = [
  tank('FV01_DEMO', 'Fermenter FV1'),
  tank('FV02_DEMO', 'Fermenter FV2'),
  tank('BT01_DEMO', 'Bright tank BT1'),
];

const GROUP = { id: 'g', name: 'Cellar', path: './r/g', devices: [] };

/** A simulated tank as the brewing calls read it: a brew controller, so a tank. */
const tankDevice = ({ thingName, name, custom, registers, latest }: BrewTankDevice): DemoTankDevice => ({
  id: thingName,
  thingName,
  name,
  isConnected: true,
  custom,
  registers,
  latest,
  base: 'BREW',
  tags: [],
});

/** The demo's brewing calls (the shared service over the demo's store) on a cellar of `TANKS`. */
function newBrewery(cellar: () => readonly BrewTankDevice[] = () => TANKS) {
  const records = firstBreweryRecords(TANKS, NOW);
  let saves = 0;
  const store = demoBreweryStore(records, async () => void (saves += 1), {
    group: (id) => (id === GROUP.id ? GROUP : undefined),
    tankDevices: async () => cellar().map(tankDevice),
    logs: async () => {
      throw new Error('no log in these tests');
    },
  });
  return { brewery: (now: number) => new BrewCalls(store, () => now), records, saves: () => saves };
}

async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DemoCallError)) throw new Error('expected a refusal');
  return [error.status, error.message];
}

describe('the demo brewery', () => {
  it('begins as the server’s demo brewery: two fermenting batches and a finished stout', async () => {
    const { brewery } = newBrewery();
    const overview = await brewery(NOW).batches({ groupId: 'g' });
    expect(overview.batches.map((batch) => [batch.tankName, batch.props.beerName, batch.state])).toEqual([
      ['Fermenter FV1', 'Northgate Pils', 'FERMENTING'],
      ['Fermenter FV2', 'Harvest Amber', 'FERMENTING'],
      ['Bright tank BT1', 'Winter Stout', 'MANUALLY_ENDED'],
    ]);
    expect(overview.batches.every((batch) => batch.isDemo && batch.latestReport === null)).toBe(true);
  });

  it('shows each tank with its state, estimate and running batch', async () => {
    const { brewery } = newBrewery();
    const meta = await brewery(NOW).overview({ groupId: 'g' });
    expect(meta.tanks.map((entry) => [entry.tankNumber, entry.state, entry.batchInfo?.props.beerName ?? null])).toEqual(
      [
        [1, 'FERMENTING', 'Northgate Pils'],
        [2, 'FERMENTING', 'Harvest Amber'],
        // A tank goes idle when its batch ends (§4), whatever is still in it (issue 35 item 8).
        [3, 'IDLE', null],
      ],
    );
    expect(meta.tanks[0]!.gravityParameters.currentGravity).toBeGreaterThan(1);
  });

  // Issue 35 item 8: the demo follows a running batch with the server's rule (advanceBatchTrack) and
  // shows the state it tracked: a new batch fills while the level rises, then ferments once CO2 flows.
  it('tracks a new batch from its readings: filling while the level rises, then fermenting', async () => {
    const quiet = (c3: number, a1: number): BrewTankDevice => ({
      ...TANKS[2]!,
      latest: { ...TANKS[2]!.latest, a1: { value: a1, t: NOW }, c3: { value: c3, t: NOW } },
    });
    let bright = quiet(3, 0);
    const { brewery } = newBrewery(() => [TANKS[0]!, TANKS[1]!, bright]);
    const stateAt = async (now: number) => (await brewery(now).overview({ groupId: 'g' })).tanks[2]!;
    await brewery(NOW).start({ groupId: 'g', tankNumber: 3, props: PROPS });
    expect((await stateAt(NOW)).state).toBe('FILLING');
    bright = quiet(5, 0);
    expect((await stateAt(NOW + 2 * 60_000)).state).toBe('FILLING');
    expect((await stateAt(NOW + 4 * 60_000)).state).toBe('FILLED');
    bright = quiet(5, 2);
    const fermenting = await stateAt(NOW + 5 * 60_000);
    expect(fermenting.state).toBe('FERMENTING');
    expect(fermenting.batchInfo?.transitions.map((entry) => entry.state)).toEqual(['FILLING', 'FILLED', 'FERMENTING']);
  });

  it('starts a batch on an empty tank and keeps it; a busy tank refuses another', async () => {
    const { brewery, records, saves } = newBrewery();
    const batch = await brewery(NOW).start({ groupId: 'g', tankNumber: 3, props: PROPS });
    expect(batch).toMatchObject({ deviceId: 'BT01_DEMO', state: 'FILLING', isDemo: true, co2TotalAtStart: 5000 });
    expect(records.batches[0]!.id).toBe(batch.id);
    expect(saves()).toBe(1);
    expect(await refusal(brewery(NOW).start({ groupId: 'g', tankNumber: 3, props: PROPS }))).toEqual([
      409,
      'Tank 3 already has a batch running. End it first.',
    ]);
    expect(await refusal(brewery(NOW).start({ groupId: 'g', tankNumber: 9, props: PROPS }))).toEqual([
      404,
      'Tank not found.',
    ]);
  });

  it('ends a batch once, and takes the end back', async () => {
    const { brewery } = newBrewery();
    const [running] = (await brewery(NOW).batches({ groupId: 'g' })).batches;
    const ended = await brewery(NOW).end({ batchId: running!.id });
    expect(ended.state).toBe('MANUALLY_ENDED');
    expect(ended.date.end).toBe(NOW);
    expect(await refusal(brewery(NOW).end({ batchId: running!.id }))).toEqual([409, 'The batch has already ended.']);
    const resumed = await brewery(NOW + 1).resume({ batchId: running!.id });
    expect(resumed.state).toBe('FERMENTING');
    expect(resumed.date.end).toBeNull();
  });

  it('marks a tasting note on the chart in blue, keeps the mark when the note changes, removes it with the note', async () => {
    const { brewery } = newBrewery();
    const [running] = (await brewery(NOW).batches({ groupId: 'g' })).batches;
    const ratings = { aroma: 4, flavor: 4, mouthfeel: 3, appearance: 3, overall: 4, carbonation: 2 };
    const noted = await brewery(NOW).putSensory({ batchId: running!.id, ...ratings, notes: 'Citrus' });
    const note = noted.sensories.find((entry) => entry.notes === 'Citrus')!;
    const mark = noted.annotations.find((entry) => entry.sensoryId === note.id)!;
    expect(mark).toMatchObject({ text: 'Tasting 3.6/5: Citrus', color: annotationColor(true), kind: 'plotLine' });
    const edited = await brewery(NOW).putSensory({ batchId: running!.id, id: note.id, ...ratings, notes: 'Pine' });
    expect(edited.annotations.filter((entry) => entry.sensoryId === note.id)).toMatchObject([
      { id: mark.id, text: 'Tasting 3.6/5: Pine' },
    ]);
    expect(await refusal(brewery(NOW).putAnnotation({ batchId: running!.id, id: mark.id, text: 'x' }))).toEqual([
      400,
      'This annotation marks a tasting note: edit the note instead.',
    ]);
    const cleared = await brewery(NOW).deleteItem({ batchId: running!.id, id: note.id }, 'sensories');
    expect(cleared.sensories.some((entry) => entry.id === note.id)).toBe(false);
    expect(cleared.annotations.some((entry) => entry.sensoryId === note.id)).toBe(false);
  });

  it('calibrates a tank and its running batch, and keeps it', async () => {
    const { brewery, records } = newBrewery();
    const tank = await brewery(NOW).calibrate({ groupId: 'g', tankNumber: 1, calibration: { co2TotalGain: 2 } });
    expect(tank.calibration.co2TotalGain).toBe(2);
    expect(records.tanks.find((entry) => entry.deviceId === 'FV01_DEMO')?.co2TotalGain).toBe(2);
    expect(
      records.batches.find((batch) => batch.deviceId === 'FV01_DEMO' && batch.date.end === null)?.calibration,
    ).toMatchObject({ co2TotalGain: 2 });
  });

  it.each([
    ['a reading of another id', { id: 'nope', value: 1.02 }, [404, 'Gravity reading not found.']],
    ['a reading in the future', { value: 1.02, timestamp: NOW + 2 * HOUR }, [400, 'The time lies in the future.']],
    // The server's rule (domain `readingTimeProblem`): a reading is of a batch that exists.
    [
      'a reading before its batch began',
      { value: 1.02, timestamp: 0 },
      [400, 'The time lies before the batch started.'],
    ],
  ])('refuses %s', async (_name, reading, expected) => {
    const { brewery } = newBrewery();
    const [running] = (await brewery(NOW).batches({ groupId: 'g' })).batches;
    expect(await refusal(brewery(NOW).putGravity({ batchId: running!.id, ...reading }))).toEqual(expected);
  });
});
