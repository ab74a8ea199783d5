import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_TABLE_FORMAT,
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  encodeTextColumn,
  type DeviceTableAnswer,
} from './device-table';
import {
  decodeDeviceTableBinary,
  deviceTableBinaryContent,
  encodeDeviceTableBinary,
  toDeviceTableAnswer,
} from './device-table-binary';
import { deviceTableColumnsOf } from './testing/device-table-columns';

/** Any answer of `count` devices: text in either form, numbers of any size, nulls anywhere. */
const answers = fc.integer({ min: 0, max: 40 }).chain((count) => {
  const rows = <T>(value: fc.Arbitrary<T>) => fc.array(value, { minLength: count, maxLength: count });
  // Full Unicode (astral characters take two UTF-16 units), repeated values, empty strings.
  const text = fc.oneof(
    rows(fc.option(fc.string({ unit: 'binary' }), { nil: null })),
    rows(fc.option(fc.constantFrom('', 'a', 'Brauhaus Süd', '🍺 tank'), { nil: null })),
  );
  const numbers = fc.oneof(
    rows(fc.option(fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }), { nil: null })),
    rows(fc.option(fc.constantFrom(-(2 ** 31), 2 ** 31, 1.5, Date.UTC(2026, 10, 25), -104.25, 2 ** 53), { nil: null })),
    rows(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null })),
  );
  return fc.record({
    format: fc.constant(DEVICE_TABLE_FORMAT),
    generatedAt: fc.integer({ min: 0, max: 2 ** 45 }),
    count: fc.constant(count),
    groups: fc.array(
      fc.record({
        id: fc.uuid(),
        name: fc.string({ unit: 'binary' }),
        kind: fc.constantFrom('root' as const, 'group' as const, 'new' as const),
        path: fc.string(),
      }),
      { maxLength: 5 },
    ),
    text: fc.record(
      Object.fromEntries(
        DEVICE_TABLE_TEXT_FIELDS.map((field) => [
          field,
          fc.tuple(text, fc.boolean()).map(([values, dict]) => (dict ? encodeTextColumn(values) : { values })),
        ]),
      ) as { [K in keyof DeviceTableAnswer['text']]: fc.Arbitrary<DeviceTableAnswer['text'][K]> },
    ),
    numbers: fc.record(
      Object.fromEntries(DEVICE_TABLE_NUMBER_FIELDS.map((field) => [field, numbers])) as {
        [K in keyof DeviceTableAnswer['numbers']]: fc.Arbitrary<DeviceTableAnswer['numbers'][K]>;
      },
    ),
  });
});

/** What a client of the JSON form reads: the answer after JSON (which writes -0 as 0). */
const asJson = (answer: DeviceTableAnswer) =>
  deviceTableColumnsOf(JSON.parse(JSON.stringify(answer)) as DeviceTableAnswer);

describe('the binary device table (format 2)', () => {
  it('reads back into the same columns as the JSON form, for any answer', () => {
    fc.assert(
      fc.property(answers, (answer) => {
        expect(decodeDeviceTableBinary(encodeDeviceTableBinary(answer))).toEqual(asJson(answer));
      }),
      { numRuns: 200 },
    );
  });

  it('carries the rows in name order when given, and reads the same columns beside them', () => {
    const withOrder = answers.chain((answer) =>
      fc
        .shuffledSubarray(
          Array.from({ length: answer.count }, (_, row) => row),
          { minLength: answer.count, maxLength: answer.count },
        )
        .map((order) => ({ answer, order: Int32Array.from(order) })),
    );
    fc.assert(
      fc.property(withOrder, fc.integer({ min: 0, max: 15 }), ({ answer, order }, shift) => {
        const body = encodeDeviceTableBinary(answer, order);
        const shifted = new Uint8Array(body.byteLength + shift);
        shifted.set(body, shift);
        const { nameOrder, ...columns } = decodeDeviceTableBinary(shifted.subarray(shift));
        expect(nameOrder && [...nameOrder]).toEqual([...order]);
        expect(columns).toEqual(asJson(answer));
        // Without the order, no order is read.
        expect(decodeDeviceTableBinary(encodeDeviceTableBinary(answer)).nameOrder).toBeUndefined();
      }),
      { numRuns: 100 },
    );
    const answer = fc.sample(
      answers.filter((candidate) => candidate.count > 0),
      1,
    )[0]!;
    expect(() => encodeDeviceTableBinary(answer, new Int32Array(answer.count + 1))).toThrow(
      'The name order does not have a row per device.',
    );
  });

  it('rebuilds the JSON form the server sends', () => {
    fc.assert(
      fc.property(answers, (answer) => {
        const rebuilt = toDeviceTableAnswer(decodeDeviceTableBinary(encodeDeviceTableBinary(answer)));
        expect(deviceTableColumnsOf(rebuilt)).toEqual(asJson(answer));
        // Text columns come back in the smaller form, as the server encodes them.
        for (const field of DEVICE_TABLE_TEXT_FIELDS) {
          expect(rebuilt.text[field]).toEqual(encodeTextColumn(deviceTableColumnsOf(answer).text[field]));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('reads a body at any byte offset (a Node.js Buffer from a pool)', () => {
    fc.assert(
      fc.property(answers, fc.integer({ min: 1, max: 15 }), (answer, shift) => {
        const body = encodeDeviceTableBinary(answer);
        const shifted = new Uint8Array(body.byteLength + shift);
        shifted.set(body, shift);
        expect(decodeDeviceTableBinary(shifted.subarray(shift))).toEqual(asJson(answer));
      }),
      { numRuns: 30 },
    );
  });

  it('keeps the build time out of the content the ETag names', () => {
    fc.assert(
      fc.property(answers, fc.integer({ min: 0, max: 2 ** 45 }), (answer, later) => {
        const first = deviceTableBinaryContent(encodeDeviceTableBinary(answer));
        const second = deviceTableBinaryContent(encodeDeviceTableBinary({ ...answer, generatedAt: later }));
        expect(second).toEqual(first);
      }),
      { numRuns: 30 },
    );
  });

  it('sends small integer columns as 32-bit integers, and others as 64-bit numbers', () => {
    const answer = fc.sample(
      answers.filter((candidate) => candidate.count === 3),
      1,
    )[0]!;
    const flags = { ...answer, numbers: { ...answer.numbers, isConnected: [1, null, 0], lat: [29.5, null, 1] } };
    const bytes = encodeDeviceTableBinary(flags);
    const decoded = decodeDeviceTableBinary(bytes);
    expect([...decoded.numbers.isConnected]).toEqual([1, Number.NaN, 0]);
    expect([...decoded.numbers.lat]).toEqual([29.5, Number.NaN, 1]);
  });

  it('cuts a text column when it is first read, and takes a column written before it is read', () => {
    fc.assert(
      fc.property(answers, (answer) => {
        const expected = asJson(answer);
        const decoded = decodeDeviceTableBinary(encodeDeviceTableBinary(answer));
        const [first, second, ...rest] = DEVICE_TABLE_TEXT_FIELDS;
        const replaced = new Array<string | null>(answer.count).fill('written');
        decoded.text[first!] = replaced;
        expect(decoded.text[first!]).toBe(replaced);
        // Read once, the column is the same array at every later read, and takes writes.
        const column = decoded.text[second!];
        expect(column).toEqual(expected.text[second!]);
        expect(decoded.text[second!]).toBe(column);
        if (answer.count > 0) {
          column[0] = 'changed';
          expect(decoded.text[second!][0]).toBe('changed');
        }
        for (const field of rest) expect(decoded.text[field]).toEqual(expected.text[field]);
        expect(Object.keys(decoded.text)).toEqual([...DEVICE_TABLE_TEXT_FIELDS]);
      }),
    );
  });

  it('refuses what is not a binary table of its format', () => {
    const body = encodeDeviceTableBinary(
      fc.sample(
        answers.filter((candidate) => candidate.count > 0),
        1,
      )[0]!,
    );
    expect(() => decodeDeviceTableBinary(new TextEncoderLike().encode('{"format":1}'))).toThrow(
      'Not a binary device table.',
    );
    const other = body.slice();
    new DataView(other.buffer).setUint32(4, 3, true);
    expect(() => decodeDeviceTableBinary(other)).toThrow('Unknown device table format 3.');
    expect(() => decodeDeviceTableBinary(body.subarray(0, body.byteLength - 8))).toThrow(
      'The device table is cut short.',
    );
  });
});

class TextEncoderLike {
  encode(text: string): Uint8Array {
    return Uint8Array.from(text, (char) => char.charCodeAt(0));
  }
}
