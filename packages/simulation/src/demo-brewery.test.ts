import { describe, expect, it } from 'vitest';
import { annotationColor, defaultChannelsMap } from '@fieldlink/domain/brew';
import { BrewTank } from './brew-tank';
import {
  DEMO_BEERS,
  demoBatchItems,
  demoBatchRecord,
  demoBreweryTank,
  demoTankBeer,
  demoTankStory,
  tankBatchState,
} from './demo-brewery';

const NOW = Date.UTC(2026, 10, 25, 9);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the demo brewery', () => {
  const model = new BrewTank({ seed: 7, startTimeMs: NOW });
  const tank = tankBatchState(model);

  it('takes a brew tank model’s batch, calibration and gravity', () => {
    expect(tank).toEqual({ ...model.batch(), levelScale: model.levelScale(), trueGravity: model.trueGravity() });
  });

  it('ferments a beer from the model: its fill, gravity, CO2 total and level calibration', () => {
    const story = demoTankStory(tank, DEMO_BEERS[0]!, NOW);
    expect(story.tankLevel).toEqual({ scale: Math.round(tank.levelScale * 10) / 10, offset: 0 });
    expect([story.capacity, story.co2TotalGain]).toEqual([3500, 1]);
    const { batch } = story;
    expect(batch.state).toBe('FERMENTING');
    expect([batch.start, batch.end]).toEqual([Math.round(tank.filledAt), null]);
    expect(batch.props).toMatchObject({ beerName: 'Northgate Pils', style: 'German Pilsner', targetGravity: 1.009 });
    expect(batch.props.originalGravity).toBe(Math.round(tank.originalGravity * 1000) / 1000);
    expect(batch.transitions.map((transition) => transition.state)).toEqual(['FILLING', 'FILLED', 'FERMENTING']);
    expect(batch.gravities).toEqual([{ value: Math.round(tank.trueGravity * 1000) / 1000, t: NOW - HOUR }]);
    expect([batch.tankLevelAtFermStart, batch.co2TotalAtStart]).toEqual([Math.round(tank.litres), tank.co2TotalAtFill]);
    // The tasting note's plot line names it (by index) and its score; the other marks the pitch.
    expect(batch.annotations).toEqual([
      {
        text: 'Tasting 3.5/5: Sulfur fading, green apple still there.',
        t: batch.sensories[0]!.t,
        color: annotationColor(true),
        sensory: 0,
      },
      { text: 'Yeast pitched', t: batch.start + 30 * 60_000, color: annotationColor(false), sensory: null },
    ]);
  });

  it('keeps a stout that ended two weeks ago in a tank given no beer', () => {
    const { batch } = demoTankStory(tank, null, NOW);
    expect(batch).toMatchObject({ state: 'MANUALLY_ENDED', start: NOW - 30 * DAY, end: NOW - 16 * DAY });
    expect(batch.props.beerName).toBe('Winter Stout');
    expect(batch.transitions.map((transition) => transition.state)).toEqual([
      'FILLING',
      'FERMENTING',
      'MANUALLY_ENDED',
    ]);
    expect(batch.gravities.map((reading) => reading.value)).toEqual([1.062, 1.041, 1.024, 1.017, 1.016]);
    expect(batch.sensories).toHaveLength(1);
    expect(batch.annotations).toEqual([]);
  });

  it('gives a story batch’s items ids, each plot line naming its tasting note by id', () => {
    const { batch } = demoTankStory(tank, DEMO_BEERS[0]!, NOW);
    let count = 0;
    const items = demoBatchItems(batch, (kind) => `${kind}-${++count}`);
    expect(items.gravities).toEqual([{ id: 'gravity-2', value: batch.gravities[0]!.value, timestamp: NOW - HOUR }]);
    expect(items.sensories).toEqual([
      {
        id: 'sensory-1',
        ratings: batch.sensories[0]!.ratings,
        notes: batch.sensories[0]!.notes,
        timestamp: NOW - 2 * HOUR,
      },
    ]);
    expect(items.annotations.map(({ id, kind, sensoryId, channelCode }) => [id, kind, sensoryId, channelCode])).toEqual(
      [
        ['annotation-3', 'plotLine', 'sensory-1', null],
        ['annotation-4', 'plotLine', null, null],
      ],
    );
  });

  it.each([
    ['the first of three tanks ferments the first beer', 0, 3, DEMO_BEERS[0]],
    ['the second the next', 1, 3, DEMO_BEERS[1]],
    ['the last (the bright tank) holds a finished batch', 2, 3, null],
    ['beers come round again in a larger cellar', 2, 4, DEMO_BEERS[0]],
    ['a brewery of one tank holds a finished batch', 0, 1, null],
  ] as const)('%s', (_name, index, count, beer) => {
    expect(demoTankBeer(index, count)).toBe(beer);
  });

  it.each([
    ['a fermenter of a Vats 4.2 tank', DEMO_BEERS[0]!, 'Vats 4.2'],
    ['a fermenter without a macro', DEMO_BEERS[1]!, null],
    ['the bright tank', null, 'Vats 7.5'],
  ])('stores %s’s batch with its tank’s calibration and its device’s channel map', (_name, beer, custom) => {
    const story = demoTankStory(tank, beer, NOW);
    let count = 0;
    const record = demoBatchRecord(story, custom, (kind) => `${kind}-${++count}`);
    const { batch } = story;
    count = 0;
    expect(record).toEqual({
      state: batch.state,
      date: { start: batch.start, end: batch.end },
      props: batch.props,
      transitions: batch.transitions,
      tankLevelAtFermStart: batch.tankLevelAtFermStart,
      co2TotalAtStart: batch.co2TotalAtStart,
      channelsMap: defaultChannelsMap(custom),
      calibration: { co2TotalGain: story.co2TotalGain, tankLevel: story.tankLevel },
      pressurizedAt: null,
      frozenGravity: null,
      ...demoBatchItems(batch, (kind) => `${kind}-${++count}`),
    });
  });

  it.each([
    ['the first of three tanks', 0, 3, 'Vats 4.2', 'FERMENTING', DEMO_BEERS[0]!.beerName],
    ['the second of three', 1, 3, null, 'FERMENTING', DEMO_BEERS[1]!.beerName],
    ['the last of three (the bright tank)', 2, 3, 'Vats 7.5', 'MANUALLY_ENDED', 'Winter Stout'],
    ['the one tank of a brewery of one', 0, 1, null, 'MANUALLY_ENDED', 'Winter Stout'],
  ] as const)(
    'keeps %s with its story’s settings and its batch',
    (_name, index, tankCount, custom, state, beerName) => {
      /** Ids counted from 1, a fresh count for each record built. */
      const countedIds = () => {
        let count = 0;
        return (kind: string) => `${kind}-${++count}`;
      };
      const stored = demoBreweryTank({ state: tank, custom }, { index, tankCount }, NOW, countedIds());
      const story = demoTankStory(tank, demoTankBeer(index, tankCount), NOW);
      expect(stored).toEqual({
        capacity: story.capacity,
        co2TotalGain: story.co2TotalGain,
        tankLevel: story.tankLevel,
        batch: demoBatchRecord(story, custom, countedIds()),
      });
      expect(stored.batch.state).toBe(state);
      expect(stored.batch.props.beerName).toBe(beerName);
      expect(stored.capacity).toBe(3500);
    },
  );
});
