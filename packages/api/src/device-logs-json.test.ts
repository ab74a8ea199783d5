import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChannelLog, DeviceLogsAnswer } from './device-logs';
import { deviceLogsJson, type ChannelLogColumns } from './device-logs-json';

// TextDecoder is in every browser and in Node.js; this package compiles without DOM or Node types.
declare const TextDecoder: new (
  label: string,
  options: { fatal: boolean; ignoreBOM: boolean },
) => { decode(bytes: Uint8Array): string };

/**
 * Bytes read as UTF-8: a fatal decoder throws on any malformed sequence (an overlong form, a surrogate, past
 * U+10FFFF), as `decodeURIComponent` did over one `%xx` string per byte at many times the cost (about 20 s
 * of the large answer's test at load). A byte order mark is kept, so one written would fail the comparison.
 */
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8 = (bytes: Uint8Array) => decoder.decode(bytes);
const text = (answer: DeviceLogsAnswer) => utf8(deviceLogsJson(answer));

const answerWith = (
  channels: Record<string, ChannelLog>,
  fields: Partial<DeviceLogsAnswer> = {},
): DeviceLogsAnswer => ({
  deviceId: 'dev-1',
  start: 1_700_000_000_000,
  end: 1_700_086_400_000,
  binCount: 2000,
  binWidth: 43_200,
  channels,
  ...fields,
});

const bins = (values: number[]): ChannelLog => ({
  kind: 'bins',
  t: values.map((_, i) => 1_700_000_000_000 + i * 43_200),
  min: values,
  max: values,
  avg: values,
  last: values,
});

/** A number of any kind the answer may hold: integers of every size, decimals, edge values. */
const anyNumber = fc.oneof(
  fc.integer(),
  fc.integer({ min: -(2 ** 31) - 10, max: 2 ** 31 + 10 }),
  fc.integer({ min: 999_999_990, max: 1_000_000_010 }),
  fc.maxSafeInteger(),
  fc.maxSafeNat().map((n) => -n),
  fc.double(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => Math.round(x * 100) / 100),
  // Short decimals (readings of a few decimals, means of halves), up to and past 6 decimals and 10^9.
  fc
    .tuple(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), fc.integer({ min: 1, max: 8 }))
    .map(([m, decimals]) => m / 10 ** decimals),
  fc.tuple(fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: 1, max: 8 })).map(([m, d]) => m / 10 ** d),
  fc.double({ min: -2e9, max: 2e9, noNaN: true }),
  fc.constantFrom(0, -0, 2 ** 53, -(2 ** 53), 1e21, 1e-7, 5e-324, Number.MAX_VALUE, NaN, Infinity, -Infinity),
);

const channelLog: fc.Arbitrary<ChannelLog> = fc.oneof(
  fc.array(fc.tuple(anyNumber, anyNumber), { maxLength: 30 }).map((pairs) => ({
    kind: 'raw' as const,
    t: pairs.map(([t]) => t),
    value: pairs.map(([, value]) => value),
  })),
  fc.array(fc.tuple(anyNumber, anyNumber, anyNumber, anyNumber, anyNumber), { maxLength: 30 }).map((rows) => ({
    kind: 'bins' as const,
    t: rows.map((row) => row[0]),
    min: rows.map((row) => row[1]),
    max: rows.map((row) => row[2]),
    avg: rows.map((row) => row[3]),
    last: rows.map((row) => row[4]),
  })),
);

describe('deviceLogsJson', () => {
  it.each([
    ['small integers', [0, 1, 9, 10, 99, 100, 101, 999, 1000, 123_456_789]],
    ['negative integers and -0', [-1, -10, -100, -0, -999_999_999, -1_000_000_000]],
    ['the int32 edges', [2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1]],
    ['unix ms and the largest safe integers', [1_700_000_000_000, 9_007_199_254_740_991, -9_007_199_254_740_991]],
    ['integers past 2^53 and 1e21', [2 ** 53, 2 ** 60, 1e21, -1e21]],
    ['decimals', [0.1, -0.5, 20.25, 1e-7, 123.456, 5e-324, Number.MAX_VALUE]],
    [
      'short decimals and their edges',
      [0.5, -0.25, 21.37, 1e-6, -1.5e-6, 0.000_001_5, 999_999_999.5, 1e9 + 0.5, 0.1 + 0.2, 1.005, 123_456.789_012],
    ],
    ['decimals past six places', [0.123_456_7, 1 / 3, 2 / 3, Math.PI, 1e-6 + 1e-13, 20.000_000_1]],
    ['not finite', [NaN, Infinity, -Infinity]],
    ['empty', []],
  ])('writes %s as JSON.stringify does', (_label, values) => {
    const answer = answerWith({ c1: bins(values), c2: { kind: 'raw', t: values, value: values } });
    expect(text(answer)).toBe(JSON.stringify(answer));
  });

  it('writes the device id and channel codes escaped as JSON.stringify does', () => {
    const answer = answerWith({ 'a"b\\c': bins([1]), 'é\u2028\n': bins([]) }, { deviceId: 'ü"\u0001\ud800' });
    expect(text(answer)).toBe(JSON.stringify(answer));
  });

  it('writes the header numbers as JSON.stringify does', () => {
    const answer = answerWith({}, { start: -0, end: 1e21, binCount: 0.5, binWidth: NaN });
    expect(text(answer)).toBe(JSON.stringify(answer));
  });

  it('writes every answer exactly as JSON.stringify does, in well-formed UTF-8', () => {
    fc.assert(
      fc.property(
        fc.string(),
        anyNumber,
        anyNumber,
        fc.dictionary(fc.string({ maxLength: 6 }), channelLog, { maxKeys: 6 }),
        (deviceId, start, end, channels) => {
          const answer = answerWith(channels, { deviceId, start, end });
          expect(text(answer)).toBe(JSON.stringify(answer));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('writes columns held in typed arrays as JSON.stringify writes the arrays of the same numbers', () => {
    const typed = (log: ChannelLog): ChannelLogColumns =>
      log.kind === 'raw'
        ? { kind: 'raw', t: Float64Array.from(log.t), value: Float64Array.from(log.value) }
        : {
            kind: 'bins',
            t: Float64Array.from(log.t),
            min: Float64Array.from(log.min),
            max: Float64Array.from(log.max),
            avg: Float64Array.from(log.avg),
            last: Float64Array.from(log.last),
          };
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), channelLog, { maxKeys: 6 }), (channels) => {
        const answer = answerWith(channels);
        const columns = Object.fromEntries(Object.entries(channels).map(([code, log]) => [code, typed(log)]));
        expect(utf8(deviceLogsJson({ ...answer, channels: columns }))).toBe(JSON.stringify(answer));
      }),
      { numRuns: 300 },
    );
  });

  it('writes a large answer (the buffer grows) and the next one in a buffer of its own', () => {
    const values = Array.from({ length: 50_000 }, (_, i) => (i % 3 === 0 ? i * 1e9 + 0.5 : i * 1_000_003));
    const large = answerWith({ c1: bins(values), c2: bins(values.map((v) => -v)) });
    const first = deviceLogsJson(large);
    const small = answerWith({ c1: bins([1, 2, 3]) });
    expect(text(small)).toBe(JSON.stringify(small));
    expect(utf8(first)).toBe(JSON.stringify(large));
    // 100,000 numbers written and compared: seconds of CPU on a loaded machine, not a timing test.
  }, 60_000);
});
