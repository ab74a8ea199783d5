import { describe, expect, it } from 'vitest';
import {
  apparentAttenuation,
  arcSegmentBands,
  arcSegmentColor,
  batteryTone,
  buttonPressValue,
  clampToRange,
  compassOffsetOf,
  compassPoint,
  fanTurnSeconds,
  formatWidgetNumber,
  incrementDecimals,
  isOnValue,
  normaliseHeading,
  signalBarsLit,
  snapToIncrement,
  sprayZoneOf,
  stepSetpoint,
  valueFraction,
} from './widget-values';

describe('valueFraction', () => {
  it.each([
    ['middle', 50, 0, 100, 0.5],
    ['at min', 0, 0, 100, 0],
    ['at max', 100, 0, 100, 1],
    ['below min clamps', -20, 0, 100, 0],
    ['above max clamps', 140, 0, 100, 1],
    ['offset range', 15, 10, 20, 0.5],
    ['negative range', -2.5, -5, 0, 0.5],
    ['empty range', 5, 10, 10, 0],
    ['inverted range', 5, 10, 0, 0],
    ['not a number', Number.NaN, 0, 100, 0],
  ])('%s: %d in %d..%d -> %d', (_label, value, min, max, expected) =>
    expect(valueFraction(value, min, max)).toBeCloseTo(expected, 10),
  );
});

describe('clampToRange', () => {
  it.each([
    [5, 0, 10, 5],
    [-1, 0, 10, 0],
    [11, 0, 10, 10],
    [Number.NaN, 0, 10, 0],
    [5, 10, 0, 10],
  ])('%d in %d..%d -> %d', (value, min, max, expected) => expect(clampToRange(value, min, max)).toBe(expected));
});

describe('arc segments', () => {
  const segments = [
    { endValue: 80, color: 'orange' },
    { endValue: 40, color: 'green' },
    { endValue: 100, color: 'red' },
  ];
  it.each([
    [10, 'green'],
    [40, 'green'],
    [40.01, 'orange'],
    [80, 'orange'],
    [99, 'red'],
    [150, 'red'],
    [-10, 'green'],
  ])('%d -> %s', (value, color) => expect(arcSegmentColor(value, segments)).toBe(color));

  it('is null without segments', () => expect(arcSegmentColor(10, [])).toBeNull());

  it.each([
    [
      'three bands over 0..100',
      segments,
      0,
      100,
      [
        { from: 0, to: 0.4, color: 'green' },
        { from: 0.4, to: 0.8, color: 'orange' },
        { from: 0.8, to: 1, color: 'red' },
      ],
    ],
    ['the last band reaches max', [{ endValue: 50, color: 'blue' }], 0, 100, [{ from: 0, to: 1, color: 'blue' }]],
    [
      'bands below min vanish',
      [
        { endValue: -10, color: 'grey' },
        { endValue: 50, color: 'blue' },
        { endValue: 60, color: 'red' },
      ],
      0,
      100,
      [
        { from: 0, to: 0.5, color: 'blue' },
        { from: 0.5, to: 1, color: 'red' },
      ],
    ],
    ['empty range', segments, 10, 10, []],
  ])('bands: %s', (_label, input, min, max, expected) => {
    const bands = arcSegmentBands(input, min, max);
    expect(bands.map((b) => ({ ...b, from: +b.from.toFixed(6), to: +b.to.toFixed(6) }))).toEqual(expected);
  });
});

describe('increments', () => {
  it.each([
    [1, 0],
    [0.1, 1],
    [0.25, 2],
    [5, 0],
    [0.001, 3],
    [0, 0],
  ])('decimals of %d -> %d', (increment, decimals) => expect(incrementDecimals(increment)).toBe(decimals));

  it.each([
    ['up by 1', 20, 1, 1, 0, 100, 21],
    ['down by 1', 20, -1, 1, 0, 100, 19],
    ['float steps stay round', 0.2, 1, 0.1, -5, 100, 0.3],
    ['brew range down', -4.95, -1, 0.1, -5, 100, -5],
    ['held at max', 100, 1, 1, 0, 100, 100],
    ['held at min', 0, -1, 1, 0, 100, 0],
    ['no increment steps by 1', 5, 1, undefined, 0, 100, 6],
    ['zero increment steps by 1', 5, 1, 0, 0, 100, 6],
    ['no current value starts at min', undefined, 1, 0.5, 10, 20, 10.5],
  ] as const)('%s', (_label, current, direction, increment, min, max, expected) =>
    expect(stepSetpoint(current, direction, increment, min, max)).toBe(expected),
  );

  it.each([
    [12.34, 0.5, 0, 100, 12.5],
    [12.2, 0.5, 0, 100, 12],
    [7, 5, 0, 100, 5],
    [8, 5, 0, 100, 10],
    [101, 5, 0, 100, 100],
    [0.17, 0.1, -5, 100, 0.2],
    [33, undefined, 0, 100, 33],
  ])('snap %d by %j in %d..%d -> %d', (value, increment, min, max, expected) =>
    expect(snapToIncrement(value, increment, min, max)).toBe(expected),
  );
});

describe('formatting', () => {
  it.each([
    [21.5, undefined, '21.5'],
    [20, undefined, '20'],
    [0.4216, undefined, '0.42'],
    [1234.56, undefined, '1,235'],
    [12.345, 2, '12.35'],
    [12, 1, '12.0'],
    [-0.001, undefined, '0'],
    [Number.NaN, undefined, '—'],
  ])('%d with %j decimals -> %s', (value, decimals, text) =>
    expect(formatWidgetNumber(value, decimals, 'en')).toBe(text),
  );
});

describe('signal bars', () => {
  it.each([
    [0, 0],
    [1, 1],
    [25, 1],
    [26, 2],
    [50, 2],
    [75, 3],
    [76, 4],
    [100, 4],
    [120, 4],
  ])('%d of 0..100 lights %d of 4', (value, lit) => expect(signalBarsLit(value, 0, 100, 4)).toBe(lit));
});

describe('batteryTone', () => {
  it.each([
    [0, 'danger'],
    [0.2, 'danger'],
    [0.21, 'warning'],
    [0.4, 'warning'],
    [0.41, 'success'],
    [1, 'success'],
  ])('%d -> %s', (fraction, tone) => expect(batteryTone(fraction)).toBe(tone));
});

describe('on and off', () => {
  it.each([
    [1, true],
    [0, false],
    [-1, true],
    [0.5, true],
    [Number.NaN, false],
    [null, false],
    [undefined, false],
  ])('%j -> %s', (value, on) => expect(isOnValue(value)).toBe(on));
});

describe('compass', () => {
  it.each([
    [0, 0, 0],
    [360, 0, 0],
    [370, 0, 10],
    [-90, 0, 270],
    [350, 20, 10],
    [90, -180, 270],
    [Number.NaN, 0, 0],
  ])('%d with offset %d -> %d', (degrees, offset, expected) =>
    expect(normaliseHeading(degrees, offset)).toBe(expected),
  );

  it.each([
    [0, 'N'],
    [11, 'N'],
    [12, 'NNE'],
    [45, 'NE'],
    [100, 'E'],
    [180, 'S'],
    [225, 'SW'],
    [350, 'N'],
    [-45, 'NW'],
  ])('%d -> %s', (degrees, point) => expect(compassPoint(degrees)).toBe(point));

  it.each([
    [undefined, 0],
    ['15', 15],
    [-30, -30],
    ['abc', 0],
  ])('offset from widget value %j -> %d', (value, offset) => expect(compassOffsetOf(value)).toBe(offset));
});

describe('fanTurnSeconds', () => {
  it.each([
    ['off', 0, 0, 100, null],
    ['negative is off', -5, 0, 100, null],
    ['not a number is off', Number.NaN, 0, 100, null],
    ['full speed', 100, 0, 100, 0.4],
    ['half speed', 50, 0, 100, 1.4],
    ['on/off channel on', 1, 0, 1, 0.4],
    ['above max', 250, 0, 100, 0.4],
  ])('%s', (_label, value, min, max, expected) => expect(fanTurnSeconds(value, min, max)).toBe(expected));
});

describe('manual spray zone', () => {
  it.each([
    [undefined, 1],
    [2, 2],
    ['2', 2],
    [3, 1],
    [null, 1],
  ])('zone from %j -> %d', (value, zone) => expect(sprayZoneOf(value)).toBe(zone));
});

describe('buttonPressValue', () => {
  it.each([
    [undefined, 1],
    [null, 1],
    [5, 5],
    ['0', 0],
    ['', 1],
    ['on', 1],
  ])('%j -> %d', (value, sent) => expect(buttonPressValue(value)).toBe(sent));
});

describe('gravity', () => {
  it.each([
    [1.05, 1.01, 80],
    [1.05, 1.05, 0],
    [1.048, 1.012, 75],
    [1, 0.99, null],
    [Number.NaN, 1.01, null],
  ])('attenuation from %d to %d -> %j', (og, sg, expected) => {
    const result = apparentAttenuation(og, sg);
    if (expected === null) expect(result).toBeNull();
    else expect(result).toBeCloseTo(expected, 6);
  });
});
