import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSampleBlock, encodeSampleBlock } from './sample-block-codec';

const MINUTE = 60_000;
const HOUR_START = Date.UTC(2026, 10, 25, 14);

/** Every value equal to its original in the sense of `Object.is` (-0 and NaN told apart as such). */
function expectExact(actual: readonly number[], expected: readonly number[]) {
  expect(actual.length).toBe(expected.length);
  const differing = expected.findIndex((value, index) => !Object.is(actual[index], value));
  expect(differing === -1 ? null : { index: differing, expected: expected[differing], actual: actual[differing] }).toBe(
    null,
  );
}

function roundTrip(times: readonly number[], values: readonly number[]) {
  const bytes = encodeSampleBlock(times, values);
  const decoded = decodeSampleBlock(bytes);
  expectExact(decoded.times, times);
  expectExact(decoded.values, values);
  return bytes;
}

const everyMinute = (count: number, start = HOUR_START) => Array.from({ length: count }, (_, i) => start + i * MINUTE);
/** The benchmark's series (bench/src/device-logs.ts): full-precision sin() plus a little noise. */
const benchValue = (i: number) =>
  Math.sin((i / 1440) * 6.283) * 10 + ((i * 7919) % 100) / 100 + (i % 9973 === 0 ? 100 : 0);
/** A two-decimal sensor: a tank temperature read to a hundredth of a degree. */
const sensorValue = (i: number) => Math.round((18 + Math.sin(i / 90) * 2.5 + ((i * 37) % 7) / 100) * 100) / 100;

describe('sample block codec', () => {
  it.each<[string, number[], number[]]>([
    ['one sample', [HOUR_START], [21.5]],
    ['no samples', [], []],
    [
      '3,600 samples at 1 Hz',
      Array.from({ length: 3600 }, (_, i) => HOUR_START + i * 1000),
      Array.from({ length: 3600 }, (_, i) => Math.sin(i / 60)),
    ],
    [
      'irregular times',
      [HOUR_START, HOUR_START + 997, HOUR_START + 2011, HOUR_START + 2012, HOUR_START + 61_000, HOUR_START + 61_999],
      [1, 2, 3, 4, 5, 6],
    ],
    [
      'a gap in a fixed interval',
      [...everyMinute(10), ...everyMinute(10, HOUR_START + 30 * MINUTE)],
      Array.from({ length: 20 }, (_, i) => i / 4),
    ],
    ['times before 1970', [-86_400_000 * 365, -86_400_000, -1, 0, 1, 86_400_000], [1, 1, 1, 1, 1, 1]],
    [
      'times at the ends of safe integers',
      [Number.MIN_SAFE_INTEGER, -1, 0, Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER],
      [0, 1, 2, 3, 4],
    ],
    ['negative values', everyMinute(5), [-1, -2.5, -1000.75, -0.01, -3]],
    [
      'huge values',
      everyMinute(6),
      [Number.MAX_VALUE, -Number.MAX_VALUE, 1e300, -1e-300, 2 ** 53 + 2, 9_007_199_254_740_991],
    ],
    ['tiny values', everyMinute(4), [Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, 5e-324]],
    ['two decimals', everyMinute(60), Array.from({ length: 60 }, (_, i) => sensorValue(i))],
    ['decimals of differing counts', everyMinute(5), [1, 1.5, 1.25, 1.125, 0.001]],
    ['nine decimals and past them', everyMinute(3), [0.123456789, 0.1234567891, 1]],
    ['whole numbers past the scaled range', everyMinute(3), [2 ** 49, 2 ** 49 + 1, -(2 ** 50)]],
    ['full-precision Math.sin', everyMinute(60), Array.from({ length: 60 }, (_, i) => Math.sin(i))],
    ['the benchmark series', everyMinute(60), Array.from({ length: 60 }, (_, i) => benchValue(i))],
    ['a constant value', everyMinute(60), Array.from({ length: 60 }, () => 7)],
    ['a constant full-precision value', everyMinute(60), Array.from({ length: 60 }, () => Math.PI)],
    ['-0 among decimals', everyMinute(4), [0.5, -0, 0, 0.25]],
    ['-0 alone', [HOUR_START], [-0]],
    ['Infinity and -Infinity', everyMinute(4), [Infinity, 1.5, -Infinity, Infinity]],
    ['NaN', everyMinute(3), [NaN, 2, NaN]],
    ['alternating signs', everyMinute(6), [1e-10, -1e10, 3, -3, 0, 1]],
  ])('round-trips %s exactly', (_name, times, values) => {
    roundTrip(times, values);
  });

  // A block's header is 3 to 5 bytes (version, count, value mode); a fixed interval's times are the
  // absolute first time (7 bytes today), the interval (3) and one run (2 or 3).
  it.each<[string, number[]]>([
    ['a minute interval', everyMinute(60)],
    ['1 Hz', Array.from({ length: 3600 }, (_, i) => HOUR_START + i * 1000)],
  ])('writes a constant value at %s in under 20 bytes, however many samples', (_name, times) => {
    expect(roundTrip(times, new Array<number>(times.length).fill(1)).length).toBeLessThan(20);
  });

  it('costs a byte a sample for an integer counter and two bits for an unchanged float', () => {
    const counter = Array.from({ length: 60 }, (_, i) => 1000 + i * 3);
    expect(roundTrip(everyMinute(60), counter).length).toBe(3 + 12 + 2 + 59);
    const unchanged = new Array<number>(60).fill(Math.E);
    expect(roundTrip(everyMinute(60), unchanged).length).toBe(3 + 12 + 8 + Math.ceil((59 * 2) / 8));
  });

  it('keeps the sizes its doc comment states (bytes per sample, an hour of 1-minute samples)', () => {
    const perSample = (value: (i: number) => number) => {
      let bytes = 0;
      let samples = 0;
      for (let hour = 0; hour < 24 * 30; hour++) {
        const indexes = Array.from({ length: 60 }, (_, minute) => hour * 60 + minute);
        bytes += roundTrip(everyMinute(60, HOUR_START + hour * 60 * MINUTE), indexes.map(value)).length;
        samples += 60;
      }
      return Number((bytes / samples).toFixed(2));
    };
    expect({ benchmark: perSample(benchValue), twoDecimals: perSample(sensorValue) }).toEqual({
      benchmark: 7.19,
      twoDecimals: 1.23,
    });
  });

  it.each<[string, number[], number[], string]>([
    ['unequal lengths', [1, 2], [1], 'as many values as times'],
    ['a repeated time', [1, 1], [1, 2], 'strictly increasing'],
    ['a time going back', [5, 4], [1, 2], 'strictly increasing'],
    ['a fractional time', [1.5], [1], 'not an integer millisecond'],
    ['an unsafe time', [2 ** 53], [1], 'not an integer millisecond'],
    ['a NaN time', [NaN], [1], 'not an integer millisecond'],
  ])('refuses %s', (_name, times, values, message) => {
    expect(() => encodeSampleBlock(times, values)).toThrow(message);
  });

  it.each<[string, number[], string]>([
    ['an empty block', [], 'truncated'],
    ['an unknown version', [2, 1, 0, 3, 0], 'version 2'],
    ['an unknown value mode', [1, 1, 11, 3, 0], 'value mode 11'],
    ['a truncated time', [1, 1, 0, 3, 0x80], 'truncated'],
    ['a run before the first time', [1, 2, 1, 8, 0], 'overrun'],
    ['trailing bytes', [...encodeSampleBlock([1], [1]), 0], 'after its samples'],
    ['truncated values', [...encodeSampleBlock([1], [Math.PI])].slice(0, -1), 'truncated'],
  ])('refuses to decode %s', (_name, bytes, message) => {
    expect(() => decodeSampleBlock(Uint8Array.from(bytes))).toThrow(message);
  });

  const sortedTimes = (maxLength: number, time: fc.Arbitrary<number>) =>
    fc.uniqueArray(time, { maxLength }).map((times) => times.sort((a, b) => a - b));

  it('round-trips any safe integer times and any float64 values exactly', () => {
    fc.assert(
      fc.property(
        sortedTimes(
          80,
          fc.maxSafeInteger().map((t) => t + 0),
        ),
        fc.array(fc.double(), { maxLength: 80 }),
        (times, doubles) => {
          const values = times.map((_, i) => doubles[i % Math.max(1, doubles.length)] ?? 0);
          roundTrip(times, values);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips sensor-like blocks exactly: jittered intervals, few decimals, repeats', () => {
    const sample = fc.record({
      gap: fc.oneof(fc.constant(MINUTE), fc.integer({ min: 1, max: 5 * MINUTE })),
      units: fc.integer({ min: -1_000_000, max: 1_000_000 }),
      decimals: fc.integer({ min: 0, max: 10 }),
      repeat: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 45), max: 2 ** 45 }),
        fc.array(sample, { maxLength: 200 }),
        (start, samples) => {
          const times: number[] = [];
          const values: number[] = [];
          let time = start;
          for (const { gap, units, decimals, repeat } of samples) {
            time += gap;
            times.push(time);
            values.push(repeat && values.length > 0 ? values[values.length - 1]! : units / 10 ** decimals);
          }
          roundTrip(times, values);
        },
      ),
      { numRuns: 500 },
    );
  });
});
