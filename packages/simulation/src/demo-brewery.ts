import {
  annotationColor,
  defaultChannelsMap,
  recordTransition,
  type TankState,
  type TastingRating,
  type Transition,
} from '@fieldlink/domain/brew';
import { tastingMarkText } from '@fieldlink/domain/brew-views';
import type { BrewTank } from './brew-tank';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A brewing tank's batch as its plant model fermented it: what the demo's first batches start from. */
export interface TankBatchState {
  filledAt: number;
  originalGravity: number;
  co2TotalAtFill: number;
  litres: number;
  /** Litres per kPa of liquid column. */
  levelScale: number;
  /** The beer's apparent gravity now. */
  trueGravity: number;
}

/** The batch a brew tank model is fermenting now, as {@link demoTankStory} takes it. */
export function tankBatchState(model: BrewTank): TankBatchState {
  return { ...model.batch(), levelScale: model.levelScale(), trueGravity: model.trueGravity() };
}

/** A beer the demo brews in a fermenter. */
export interface DemoBeer {
  beerName: string;
  style: string;
  targetGravity: number;
}

/** What the demo brews in its fermenters, in tank order; the bright tank holds a finished stout. */
export const DEMO_BEERS: readonly DemoBeer[] = [
  { beerName: 'Northgate Pils', style: 'German Pilsner', targetGravity: 1.009 },
  { beerName: 'Harvest Amber', style: 'American Amber Ale', targetGravity: 1.012 },
];

/**
 * What a tank of the demo brewery holds, by its place among the brewery's `tankCount` tanks: the
 * fermenters a beer of {@link DEMO_BEERS} each in turn, the last tank (the bright tank) a finished
 * batch (null). The server's seed and the browser's demo start their breweries from it.
 */
export function demoTankBeer(index: number, tankCount: number): DemoBeer | null {
  return index < tankCount - 1 ? DEMO_BEERS[index % DEMO_BEERS.length]! : null;
}

/** One batch of the demo brewery, in plain values: the server stores it as rows, the browser keeps it. */
export interface DemoBatchStory {
  state: Extract<TankState, 'FERMENTING' | 'MANUALLY_ENDED'>;
  start: number;
  end: number | null;
  props: DemoBeer & { originalGravity: number; notes: string };
  transitions: Transition[];
  gravities: { value: number; t: number }[];
  sensories: { ratings: Record<TastingRating, number>; notes: string; t: number }[];
  /** Plot lines; `sensory` is the index in `sensories` of the tasting note a line marks. */
  annotations: { text: string; t: number; color: string; sensory: number | null }[];
  tankLevelAtFermStart: number;
  co2TotalAtStart: number | null;
}

/** A demo brewery tank: its settings and the batch it shows. */
export interface DemoTankStory {
  capacity: number;
  co2TotalGain: number;
  tankLevel: { scale: number; offset: number };
  batch: DemoBatchStory;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The demo brewery (Northgate Brewing's cellar, and the browser demo's brewery alike): a fermenter given
 * a `beer` runs the batch its simulated tank is fermenting, started when the model filled it, with the
 * model's CO2 total then and its level calibration, so the console's estimate follows the live
 * fermentation; a reading, a tasting note and two annotations. A tank given none is empty and keeps a
 * stout that finished two weeks ago.
 */
export function demoTankStory(tank: TankBatchState, beer: DemoBeer | null, now: number): DemoTankStory {
  const settings = {
    capacity: 3500,
    co2TotalGain: 1,
    tankLevel: { scale: Math.round(tank.levelScale * 10) / 10, offset: 0 },
  };
  if (beer) {
    const start = Math.round(tank.filledAt);
    let transitions = recordTransition([], 'FILLING', start);
    transitions = recordTransition(transitions, 'FILLED', start + HOUR);
    transitions = recordTransition(transitions, 'FERMENTING', Math.min(now, start + 5 * HOUR));
    const tasting = {
      ratings: { aroma: 4, flavor: 3.5, mouthfeel: 3.5, appearance: 3, overall: 3.5, carbonation: 1 },
      notes: 'Sulfur fading, green apple still there.',
      t: now - 2 * HOUR,
    };
    return {
      ...settings,
      batch: {
        state: 'FERMENTING',
        start,
        end: null,
        props: {
          ...beer,
          originalGravity: round3(tank.originalGravity),
          notes: 'Pitched at 12 °C, free rise to 14 °C after day 3.',
        },
        transitions,
        gravities: [{ value: round3(tank.trueGravity), t: now - HOUR }],
        sensories: [tasting],
        annotations: [
          {
            text: tastingMarkText(tasting.ratings, tasting.notes),
            t: tasting.t,
            color: annotationColor(true),
            sensory: 0,
          },
          { text: 'Yeast pitched', t: start + 30 * 60_000, color: annotationColor(false), sensory: null },
        ],
        tankLevelAtFermStart: Math.round(tank.litres),
        co2TotalAtStart: tank.co2TotalAtFill,
      },
    };
  }
  const start = now - 30 * DAY;
  const end = now - 16 * DAY;
  let transitions = recordTransition([], 'FILLING', start);
  transitions = recordTransition(transitions, 'FERMENTING', start + 6 * HOUR);
  transitions = recordTransition(transitions, 'MANUALLY_ENDED', end);
  return {
    ...settings,
    batch: {
      state: 'MANUALLY_ENDED',
      start,
      end,
      props: {
        beerName: 'Winter Stout',
        style: 'Oatmeal Stout',
        originalGravity: 1.062,
        targetGravity: 1.016,
        notes: 'Kegged and bottled on day 14.',
      },
      transitions,
      gravities: [1.062, 1.041, 1.024, 1.017, 1.016].map((value, day) => ({
        value,
        t: start + day * 3 * DAY + 2 * HOUR,
      })),
      sensories: [
        {
          ratings: { aroma: 4, flavor: 4.5, mouthfeel: 4.5, appearance: 5, overall: 4.5, carbonation: 2.5 },
          notes: 'Roast and chocolate, silky from the oats.',
          t: end - DAY,
        },
      ],
      annotations: [],
      tankLevelAtFermStart: 2400,
      co2TotalAtStart: null,
    },
  };
}

/**
 * A story batch's readings, tasting notes and plot lines as records with ids (`newId` of their kind),
 * each plot line naming its tasting note by id: the server's seed stores them as rows, the browser's
 * demo keeps them, and neither resolves the story's indexes by itself.
 */
export function demoBatchItems(batch: DemoBatchStory, newId: (kind: 'gravity' | 'sensory' | 'annotation') => string) {
  const sensories = batch.sensories.map(({ ratings, notes, t }) => ({
    id: newId('sensory'),
    ratings,
    notes,
    timestamp: t,
  }));
  return {
    gravities: batch.gravities.map(({ value, t }) => ({ id: newId('gravity'), value, timestamp: t })),
    sensories,
    annotations: batch.annotations.map(({ text, t, color, sensory }) => ({
      id: newId('annotation'),
      kind: 'plotLine' as const,
      text,
      timestamp: t,
      color,
      channelCode: null,
      sensoryId: sensory === null ? null : sensories[sensory]!.id,
    })),
  };
}

/**
 * A demo tank's batch as both breweries store it (the server's seed as rows, the browser's demo in its
 * list): the story's batch over its dates, the tank's calibration, the device's default channel map (by
 * its custom macro), not yet pressurized, no frozen gravity, and its items with ids (`newId`).
 */
export function demoBatchRecord(
  story: DemoTankStory,
  custom: string | null,
  newId: (kind: 'gravity' | 'sensory' | 'annotation') => string,
) {
  const { batch, co2TotalGain, tankLevel } = story;
  const { state, props, transitions, tankLevelAtFermStart, co2TotalAtStart } = batch;
  return {
    state,
    date: { start: batch.start, end: batch.end },
    props,
    transitions,
    tankLevelAtFermStart,
    co2TotalAtStart,
    channelsMap: defaultChannelsMap(custom),
    calibration: { co2TotalGain, tankLevel },
    pressurizedAt: null,
    frozenGravity: null,
    ...demoBatchItems(batch, newId),
  };
}

/**
 * A tank of the demo brewery as both breweries store it, by its place among the brewery's tanks: its
 * settings (capacity, CO2 gain, level calibration) and the batch it shows ({@link demoTankBeer} for
 * what it holds, {@link demoTankStory}, {@link demoBatchRecord}). The server's seed writes it as rows,
 * the browser's demo keeps it in its list.
 */
export function demoBreweryTank(
  tank: { state: TankBatchState; custom: string | null },
  place: { index: number; tankCount: number },
  now: number,
  newId: (kind: 'gravity' | 'sensory' | 'annotation') => string,
) {
  const story = demoTankStory(tank.state, demoTankBeer(place.index, place.tankCount), now);
  const { capacity, co2TotalGain, tankLevel } = story;
  return { capacity, co2TotalGain, tankLevel, batch: demoBatchRecord(story, tank.custom, newId) };
}
