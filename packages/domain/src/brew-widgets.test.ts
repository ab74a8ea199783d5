import { describe, expect, it } from 'vitest';
import { brewGravityView, brewSummaryView, fermentationLag, formatLag, type BrewWidgetTank } from './brew-widgets';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 1, 8);

const tank = (overrides: Partial<BrewWidgetTank> = {}, batch: Partial<NonNullable<BrewWidgetTank['batchInfo']>> = {}) =>
  ({
    state: 'FERMENTING',
    gravityParameters: { currentGravity: 1.02 },
    batchInfo: {
      props: { beerName: 'Harvest Pale', style: 'Pale ale', originalGravity: 1.05 },
      date: { start: START, end: null },
      gravities: [],
      transitions: [
        { state: 'FILLED', timestamp: START },
        { state: 'FERMENTING', timestamp: START + 14 * HOUR },
      ],
      ...batch,
    },
    ...overrides,
  }) as BrewWidgetTank;

describe('brewGravityView: the original-gravity widget on the brewing model', () => {
  it.each<[string, BrewWidgetTank, { original: number | null; current: number | null; abv: number | null }]>([
    ['the estimate when no reading is taken', tank(), { original: 1.05, current: 1.02, abv: 3.9375 }],
    [
      'the latest reading beats the estimate',
      tank(
        {},
        {
          gravities: [
            { value: 1.03, timestamp: START + HOUR },
            { value: 1.012, timestamp: START + 2 * HOUR },
          ],
        },
      ),
      { original: 1.05, current: 1.012, abv: 4.9875 },
    ],
    [
      'no original gravity: the gravity now, no ABV',
      tank({}, { props: { beerName: 'X', style: '', originalGravity: null } }),
      { original: null, current: 1.02, abv: null },
    ],
    [
      'no original gravity: the latest reading, taken out of order',
      tank(
        {},
        {
          props: { beerName: 'X', style: '', originalGravity: null },
          gravities: [
            { value: 1.012, timestamp: START + 2 * HOUR },
            { value: 1.03, timestamp: START + HOUR },
          ],
        },
      ),
      { original: null, current: 1.012, abv: null },
    ],
    ['no batch: nothing', tank({ batchInfo: null }), { original: null, current: null, abv: null }],
  ])('%s', (_case, given, expected) => {
    const view = brewGravityView(given);
    expect({ original: view.original, current: view.current }).toEqual({
      original: expected.original,
      current: expected.current,
    });
    if (expected.abv === null) expect(view.abv).toBeNull();
    else expect(view.abv!.abv).toBeCloseTo(expected.abv, 9);
  });

  it('gives the apparent attenuation from the two gravities', () => {
    expect(brewGravityView(tank()).attenuation).toBeCloseTo(60, 9);
  });
});

describe('fermentationLag: from the batch start to the first FERMENTING transition', () => {
  it.each<[string, BrewWidgetTank, { ms: number; running: boolean } | null]>([
    ['fermenting: the lag is over', tank(), { ms: 14 * HOUR, running: false }],
    [
      'filled, not fermenting yet: running to now',
      tank({ state: 'FILLED' }, { transitions: [{ state: 'FILLED', timestamp: START }] }),
      { ms: 20 * HOUR, running: true },
    ],
    [
      'a FERMENTING transition of an earlier batch does not count',
      tank({ state: 'FILLED' }, { transitions: [{ state: 'FERMENTING', timestamp: START - HOUR }] }),
      { ms: 20 * HOUR, running: true },
    ],
    [
      'ended without fermenting: none',
      tank({ state: 'IDLE' }, { date: { start: START, end: START + 5 * HOUR }, transitions: [] }),
      null,
    ],
    ['no batch: none', tank({ batchInfo: null }), null],
  ])('%s', (_case, given, expected) => expect(fermentationLag(given, START + 20 * HOUR)).toEqual(expected));
});

describe('brewSummaryView: a tank at a glance', () => {
  it('names the beer, its state and day of fermentation, with the gravities', () => {
    expect(brewSummaryView(tank(), START + 14 * HOUR + 30 * HOUR)).toMatchObject({
      beerName: 'Harvest Pale',
      style: 'Pale ale',
      stateLabel: 'Fermenting',
      day: 2,
      original: 1.05,
      current: 1.02,
    });
  });

  it('an idle tank without a batch: its state only', () => {
    expect(brewSummaryView(tank({ state: 'IDLE', batchInfo: null }), START)).toMatchObject({
      beerName: null,
      stateLabel: 'Idle',
      day: null,
      original: null,
    });
  });
});

describe('formatLag', () => {
  it.each([
    [0, '0 min'],
    [35 * 60_000, '35 min'],
    [14 * HOUR + 5 * 60_000, '14 h 5 min'],
    [51 * HOUR, '2 d 3 h'],
    [-5, '0 min'],
  ])('%d ms -> %s', (ms, text) => expect(formatLag(ms)).toBe(text));
});
