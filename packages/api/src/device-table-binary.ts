import { Type } from '@sinclair/typebox';
import {
  DEVICE_TABLE_FORMAT,
  DEVICE_TABLE_PATH,
  DeviceTableAnswer,
  DeviceTableQuery,
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  encodeTextColumn,
  type DeviceTableGroup,
  type DeviceTableNumberField,
  type DeviceTableTextField,
} from './device-table';
import { ErrorAnswer } from './errors';
import { apiRoute } from './routes';

/**
 * `GET /devices/table?format=binary`: the device table's answer in a binary form (format 3) that the
 * console reads straight into the typed columns it works on. At 100,000 devices the JSON form is
 * 30 MiB that the browser must parse into 2.5 million values before the first row shows; this form is
 * a short JSON header (groups, dictionaries, where each column lies) and then one block per column:
 * number columns as little-endian `Float64Array`s (NaN: no value), or as the narrowest of `Int8Array`,
 * `Int16Array` and `Int32Array` that holds every value when all are integers; dictionary codes and the
 * lengths of other text columns (whose values are one UTF-8 block) in the narrowest of the same three.
 * Format 3 narrowed the integer blocks (format 2 sent them all as `Int32Array`s): a third fewer bytes
 * for the browser to inflate and copy at 100,000 devices. The same content as the JSON form
 * (`toDeviceTableAnswer` rebuilds it), so the JSON form stays for every other client. It may also
 * carry the rows in the console's order by name (an `Int32Array` block the header names as
 * `nameOrder`): a hint the console checks before it uses it (`column-order.ts`).
 * docs/decisions.md ("Cold open at 100,000 devices", "Device table cold open under 1 s").
 *
 * Layout: magic `FLDT`, format (u32), generatedAt (f64), header length (u32), 4 bytes of padding, the
 * header (UTF-8 JSON), padding to 8 bytes, then the column blocks, each starting on 8 bytes.
 */

// TextEncoder and TextDecoder are in every browser and in Node.js; this package compiles without DOM or Node types.
declare const TextEncoder: new () => { encode(text: string): Uint8Array };
declare const TextDecoder: new (
  label?: string,
  options?: { fatal?: boolean; ignoreBOM?: boolean },
) => { decode(bytes: Uint8Array): string };

/** Version of the binary form; bumped when its layout or a field changes meaning. */
export const DEVICE_TABLE_BINARY_FORMAT = 3;

/** Media type of the binary form. */
export const DEVICE_TABLE_BINARY_TYPE = 'application/vnd.fieldlink.device-table';

/** `FLDT` read as a little-endian u32. */
const MAGIC = 0x54444c46;
const PREAMBLE_BYTES = 24;
const CONTENT_START = 16;
/** Where a block lies: byte offset from the end of the header (padded), and byte length. */
type Block = [offset: number, bytes: number];

/** Bytes per value of an integer block: `Int8Array`, `Int16Array` or `Int32Array`. */
type IntegerSize = 1 | 2 | 4;
/** An integer block and the size of its values. */
type IntegerBlock = [offset: number, bytes: number, size: IntegerSize];

type TextBlock = { dict: string[]; codes: IntegerBlock } | { chars: Block; lengths: IntegerBlock };
type NumberBlock = { int: IntegerBlock } | { float64: Block };

/**
 * The integer arrays of each size; an integer number column's "no value" is the smallest value of
 * its size, which its values never take.
 */
const INTEGER_ARRAYS = {
  1: { array: Int8Array, min: -0x80, max: 0x7f },
  2: { array: Int16Array, min: -0x8000, max: 0x7fff },
  4: { array: Int32Array, min: -0x80000000, max: 0x7fffffff },
} as const;
const INTEGER_SIZES: readonly IntegerSize[] = [1, 2, 4];

interface BinaryHeader {
  count: number;
  groups: DeviceTableGroup[];
  text: Record<DeviceTableTextField, TextBlock>;
  numbers: Record<DeviceTableNumberField, NumberBlock>;
  nameOrder?: Block;
}

/** The table as the console keeps it: text per row, numbers in Float64Arrays with NaN for "no value". */
export interface DeviceTableColumns {
  generatedAt: number;
  count: number;
  groups: DeviceTableGroup[];
  text: Record<DeviceTableTextField, (string | null)[]>;
  numbers: Record<DeviceTableNumberField, Float64Array>;
  /** The rows in the console's ascending order by name, when the server sent it (unchecked). */
  nameOrder?: Int32Array;
}

const align8 = (bytes: number) => (bytes + 7) & ~7;

/**
 * The narrowest integer size that holds every value (`low` and `high` the smallest and largest), with
 * room for the smallest of the size as "no value" when `nullable`; null when none does.
 */
function integerSizeOf(low: number, high: number, nullable: boolean): IntegerSize | null {
  return (
    INTEGER_SIZES.find((size) => {
      const { min, max } = INTEGER_ARRAYS[size];
      return low >= (nullable ? min + 1 : min) && high <= max;
    }) ?? null
  );
}

/** A number column's integer size, or null when a value is not an integer (or too big for 32 bits). */
function integerColumnSize(values: readonly (number | null)[]): IntegerSize | null {
  let [low, high] = [0, 0];
  for (const value of values) {
    if (value === null) continue;
    if (!Number.isInteger(value)) return null;
    if (value < low) low = value;
    else if (value > high) high = value;
  }
  return integerSizeOf(low, high, true);
}

/** `values` (integers within `size`) in an integer array of that size, as bytes. */
function integerBytes(values: ArrayLike<number>, size: IntegerSize): Uint8Array {
  return new Uint8Array(INTEGER_ARRAYS[size].array.from(values).buffer);
}

/** The binary form of an answer, with the rows' order by name when given (one index per row). */
export function encodeDeviceTableBinary(answer: DeviceTableAnswer, nameOrder?: Int32Array): Uint8Array<ArrayBuffer> {
  const blocks: Uint8Array[] = [];
  let offset = 0;
  const add = (bytes: Uint8Array): Block => {
    const block: Block = [offset, bytes.byteLength];
    blocks.push(bytes);
    offset += align8(bytes.byteLength);
    return block;
  };
  const addIntegers = (values: ArrayLike<number>, size: IntegerSize): IntegerBlock => [
    ...add(integerBytes(values, size)),
    size,
  ];
  const encoder = new TextEncoder();
  const text = {} as BinaryHeader['text'];
  for (const field of DEVICE_TABLE_TEXT_FIELDS) {
    const column = answer.text[field];
    if ('dict' in column) {
      // Codes run from -1 (no value) to the dictionary's last index.
      const size = integerSizeOf(-1, column.dict.length - 1, false)!;
      text[field] = { dict: column.dict, codes: addIntegers(column.codes, size) };
    } else {
      // Lengths in UTF-16 units (as JavaScript counts them), -1 for no value.
      const lengths = column.values.map((value) => (value === null ? -1 : value.length));
      const size = integerSizeOf(
        -1,
        lengths.reduce((longest, length) => Math.max(longest, length), 0),
        false,
      )!;
      const chars = encoder.encode(column.values.filter((value) => value !== null).join(''));
      text[field] = { chars: add(chars), lengths: addIntegers(lengths, size) };
    }
  }
  const numbers = {} as BinaryHeader['numbers'];
  for (const field of DEVICE_TABLE_NUMBER_FIELDS) {
    const values = answer.numbers[field];
    const size = integerColumnSize(values);
    numbers[field] =
      size !== null
        ? {
            int: addIntegers(
              values.map((value) => value ?? INTEGER_ARRAYS[size].min),
              size,
            ),
          }
        : {
            float64: add(
              new Uint8Array(Float64Array.from(values, (value) => (value === null ? Number.NaN : value + 0)).buffer),
            ),
          };
  }
  const header: BinaryHeader = { count: answer.count, groups: answer.groups, text, numbers };
  if (nameOrder) {
    if (nameOrder.length !== answer.count) throw new Error('The name order does not have a row per device.');
    header.nameOrder = add(new Uint8Array(nameOrder.buffer, nameOrder.byteOffset, nameOrder.byteLength));
  }
  const headerBytes = encoder.encode(JSON.stringify(header));
  const dataStart = align8(PREAMBLE_BYTES + headerBytes.byteLength);
  const body = new Uint8Array(dataStart + offset);
  const view = new DataView(body.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, DEVICE_TABLE_BINARY_FORMAT, true);
  view.setFloat64(8, answer.generatedAt, true);
  view.setUint32(CONTENT_START, headerBytes.byteLength, true);
  body.set(headerBytes, PREAMBLE_BYTES);
  let at = dataStart;
  for (const block of blocks) {
    body.set(block, at);
    at += align8(block.byteLength);
  }
  return body;
}

/** The bytes of a binary answer that its content determines (all but the build time): what its ETag names. */
export function deviceTableBinaryContent(body: Uint8Array): Uint8Array {
  return body.subarray(CONTENT_START);
}

/** Reads a binary answer; throws on anything that is not one, or of another format. */
export function decodeDeviceTableBinary(body: Uint8Array): DeviceTableColumns {
  // Typed-array views need their offset to be a multiple of their element size.
  const bytes = body.byteOffset % 8 === 0 ? body : body.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < PREAMBLE_BYTES || view.getUint32(0, true) !== MAGIC) {
    throw new Error('Not a binary device table.');
  }
  const format = view.getUint32(4, true);
  if (format !== DEVICE_TABLE_BINARY_FORMAT) throw new Error(`Unknown device table format ${format}.`);
  const generatedAt = view.getFloat64(8, true);
  const headerLength = view.getUint32(CONTENT_START, true);
  // `ignoreBOM` keeps a column's leading U+FEFF: by default the decoder drops it as a byte-order
  // mark, and a column whose first value starts with one would no longer match its lengths.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const header = JSON.parse(
    decoder.decode(bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + headerLength)),
  ) as BinaryHeader;
  const dataStart = bytes.byteOffset + align8(PREAMBLE_BYTES + headerLength);
  const { count } = header;
  const dataEnd = bytes.byteOffset + bytes.byteLength;
  /** The block's bytes, within the body (a view may otherwise reach past it into its buffer). */
  const blockOf = ([offset, length]: Block) => {
    const start = dataStart + offset;
    if (offset < 0 || length < 0 || start + length > dataEnd) throw new Error('The device table is cut short.');
    return start;
  };
  const int32s = (block: Block) => new Int32Array(bytes.buffer, blockOf(block), block[1] / 4);
  const integers = ([offset, length, size]: IntegerBlock): Int8Array | Int16Array | Int32Array => {
    const start = blockOf([offset, length]);
    if (size === 1) return new Int8Array(bytes.buffer, start, length);
    if (size === 2) return new Int16Array(bytes.buffer, start, length / 2);
    if (size === 4) return int32s([offset, length]);
    throw new Error(`Unknown integer size ${String(size)} in the device table.`);
  };
  const rowsOf = <T extends Int8Array | Int16Array | Int32Array | Float64Array>(array: T): T => {
    if (array.length !== count) throw new Error('A device table column does not have a value per device.');
    return array;
  };

  // Every block is checked here, but a text column's values are cut from its block only when the
  // column is first read: at 100,000 devices that is 100,000 strings a column, and the console's
  // first rows read a few of the columns (the rest are read in idle time after it opens).
  const text = {} as DeviceTableColumns['text'];
  for (const field of DEVICE_TABLE_TEXT_FIELDS) {
    const block = header.text[field];
    if ('dict' in block) {
      const codes = rowsOf(integers(block.codes));
      defineLazy(text, field, () => {
        const values: (string | null)[] = new Array(count);
        for (let row = 0; row < count; row += 1) values[row] = block.dict[codes[row]!] ?? null;
        return values;
      });
    } else {
      const all = decoder.decode(new Uint8Array(bytes.buffer, blockOf(block.chars), block.chars[1]));
      const lengths = rowsOf(integers(block.lengths));
      let total = 0;
      for (let row = 0; row < count; row += 1) total += Math.max(0, lengths[row]!);
      if (total !== all.length) throw new Error(`The device table's ${field} column does not match its lengths.`);
      defineLazy(text, field, () => {
        const values: (string | null)[] = new Array(count);
        let at = 0;
        for (let row = 0; row < count; row += 1) {
          const size = lengths[row]!;
          if (size < 0) {
            values[row] = null;
            continue;
          }
          values[row] = all.slice(at, at + size);
          at += size;
        }
        return values;
      });
    }
  }

  const numbers = {} as DeviceTableColumns['numbers'];
  for (const field of DEVICE_TABLE_NUMBER_FIELDS) {
    const block = header.numbers[field];
    if ('float64' in block) {
      numbers[field] = rowsOf(new Float64Array(bytes.buffer, blockOf(block.float64), block.float64[1] / 8));
    } else {
      const source = rowsOf(integers(block.int));
      const none = INTEGER_ARRAYS[block.int[2]].min;
      const column = new Float64Array(count);
      for (let row = 0; row < count; row += 1) {
        const value = source[row]!;
        column[row] = value === none ? Number.NaN : value;
      }
      numbers[field] = column;
    }
  }
  const columns: DeviceTableColumns = { generatedAt, count, groups: header.groups, text, numbers };
  if (header.nameOrder) columns.nameOrder = rowsOf(int32s(header.nameOrder));
  return columns;
}

/**
 * An enumerable property made by `make` when first read (then a plain writable value); writing it
 * first replaces it without making it.
 */
function defineLazy<T>(target: object, key: string, make: () => T): void {
  const settle = (value: T) => {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => settle(make()),
    set: settle,
  });
}

/** The JSON form of the columns (what `GET /devices/table` answers without `format`). */
export function toDeviceTableAnswer(columns: DeviceTableColumns): DeviceTableAnswer {
  return {
    format: DEVICE_TABLE_FORMAT,
    generatedAt: columns.generatedAt,
    count: columns.count,
    groups: columns.groups,
    text: Object.fromEntries(
      DEVICE_TABLE_TEXT_FIELDS.map((field) => [field, encodeTextColumn(columns.text[field])]),
    ) as DeviceTableAnswer['text'],
    numbers: Object.fromEntries(
      DEVICE_TABLE_NUMBER_FIELDS.map((field) => [
        field,
        Array.from(columns.numbers[field], (value) => (Number.isNaN(value) ? null : value)),
      ]),
    ) as DeviceTableAnswer['numbers'],
  };
}

/** The device table call (core §2), declared beside its binary form, which its summary names. */
export const DEVICE_TABLE_ROUTE = apiRoute('GET', DEVICE_TABLE_PATH, {
  tags: ['devices'],
  summary:
    'Every device the caller may see, as columns (the device table). Validated with an ETag; ' +
    'gzip-compressed when the client accepts it. With format=binary the same table in the binary form ' +
    `(format ${DEVICE_TABLE_BINARY_FORMAT}, ${DEVICE_TABLE_BINARY_TYPE}).`,
  querystring: DeviceTableQuery,
  response: {
    200: DeviceTableAnswer,
    304: Type.Null({ description: 'Not modified: the ETag in If-None-Match is current.' }),
    400: ErrorAnswer,
    401: ErrorAnswer,
  },
});
