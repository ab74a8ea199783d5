/**
 * The block codec of the raw log (docs/decisions.md, "Logs at scale", bytes per stored point): one
 * channel's samples of one hour, as the log maintenance job compacts them, in one byte string.
 *
 * What it holds is what `logs` holds: `t` a `bigint` of milliseconds since the epoch (read as a safe
 * integer; times before 1970 are negative) and `value` a `double precision` that is never null. Every
 * float64 comes back bit for bit where JavaScript can tell (`Object.is`): -0, ±Infinity and NaN
 * included, though ingest stores only finite values and SQLite cannot store NaN at all.
 *
 * Layout (version 1):
 * - a version byte, the sample count (varint) and a value-mode byte: 0 for XOR'd float64, 1 + d for
 *   scaled integers with d decimals;
 * - the times as tokens (unsigned LEB128 varints, the two low bits a tag): 0 a run of m samples whose
 *   delta-of-delta is zero, 1 and 2 a delta-of-delta of +m and -m, 3 an absolute time (its sign in m,
 *   its magnitude in the next varint) that restarts the delta chain. The first time is absolute; a
 *   device on a fixed interval then costs one token for its first interval and one for the rest of
 *   the hour (12 bytes for 60 samples); jitter costs a byte or two a sample;
 * - the values, when every value of the block is v = s / 10^d exactly for some d <= 9 with a small
 *   integer s (what sensors send; ALP, SIGMOD 2023), as the same tokens over the deltas of s (a run of
 *   equal values is one token); otherwise the XOR of each float64's bits with the previous one, as
 *   Gorilla (VLDB 2015) with Chimp's cheaper control (VLDB 2022): after the first value's 64 bits,
 *   2 control bits a value: 00 the same value; 01 a XOR with more than 6 trailing zeros, written as its
 *   leading-zero class (3 bits), the count of its centre bits (6) and those bits; 10 and 11 a XOR
 *   written whole from its leading zeros down, 10 with the previous value's class, 11 with a new one
 *   (3 bits). On the benchmark's series this is 7.19 bytes a sample against Gorilla's 7.34.
 *
 * Measured (encoded bytes per sample, blocks of an hour of 1-minute samples, `sample-block-codec.test.ts`
 * "sizes"): 7.19 for the benchmark's full-precision `Math.sin` series, 1.23 for a two-decimal sensor
 * series.
 *
 * Decoding returns plain arrays (readers concatenate blocks into windows and answer JSON) and
 * allocates nothing but them; each block is read in one pass.
 */

const VERSION = 1;
const MODE_XOR = 0;
const MAX_DECIMALS = 9;
/** Magnitudes in tokens stay below 2^50 so that 4m + tag and every delta are exact doubles. */
const MAX_MAGNITUDE = 2 ** 50;
/** Scaled integers stay below 2^49, so their deltas stay below MAX_MAGNITUDE. */
const MAX_SCALED = 2 ** 49;
const POWERS_OF_TEN = Array.from({ length: MAX_DECIMALS + 1 }, (_, d) => 10 ** d);

const TAG_RUN = 0;
const TAG_PLUS = 1;
const TAG_MINUS = 2;
const TAG_ABSOLUTE = 3;

// The two 32-bit halves of one float64, in the platform's byte order.
const floatView = new Float64Array(1);
const wordView = new Uint32Array(floatView.buffer);
const HIGH = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0;
const LOW = 1 - HIGH;

/**
 * Chimp's leading-zero classes (VLDB 2022): a XOR's leading zeros rounded down to one of eight
 * counts, written as its 3-bit code; XORs with more than TRAILING_THRESHOLD trailing zeros are
 * written as their centre bits, the others whole from the rounded leading zeros down.
 */
const LEADING_ZEROS = [0, 8, 12, 16, 18, 20, 22, 24];
const LEADING_CODE = Array.from({ length: 65 }, (_, zeros) => LEADING_ZEROS.findLastIndex((class_) => class_ <= zeros));
const TRAILING_THRESHOLD = 6;

const trailingZeros32 = (word: number) => 31 - Math.clz32(word & -word);

class BlockWriter {
  private readonly bytes: Uint8Array;
  private position = 0;
  private bitCount = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }

  byte(value: number) {
    this.bytes[this.position++] = value;
  }

  uint(value: number) {
    let rest = value;
    while (rest >= 0x80000000) {
      this.bytes[this.position++] = (rest % 128) | 128;
      rest = Math.floor(rest / 128);
    }
    while (rest > 127) {
      this.bytes[this.position++] = (rest & 127) | 128;
      rest >>>= 7;
    }
    this.bytes[this.position++] = rest;
  }

  token(tag: number, magnitude: number) {
    this.uint(magnitude * 4 + tag);
  }

  /** A signed step: its sign in the tag. */
  step(delta: number) {
    this.token(delta < 0 ? TAG_MINUS : TAG_PLUS, Math.abs(delta));
  }

  /** The low `count` (<= 32) bits of `word`, most significant first, after the bits written so far. */
  bits(word: number, count: number) {
    let left = count;
    while (left > 0) {
      if (this.bitCount === 0) this.bytes[this.position++] = 0;
      const free = 8 - this.bitCount;
      const take = left < free ? left : free;
      const chunk = (word >>> (left - take)) & ((1 << take) - 1);
      this.bytes[this.position - 1]! |= chunk << (free - take);
      this.bitCount = (this.bitCount + take) & 7;
      left -= take;
    }
  }

  finish(): Uint8Array {
    return this.bytes.slice(0, this.position);
  }
}

class BlockReader {
  private position = 0;
  private bitCount = 0;

  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.position >= this.bytes.length) throw new RangeError('Sample block is truncated.');
    return this.bytes[this.position++]!;
  }

  uint(): number {
    let byte = this.byte();
    if (byte < 128) return byte;
    let value = byte & 127;
    let scale = 128;
    do {
      byte = this.byte();
      value += (byte & 127) * scale;
      scale *= 128;
    } while (byte >= 128);
    return value;
  }

  bits(count: number): number {
    let word = 0;
    let left = count;
    while (left > 0) {
      if (this.bitCount === 0) this.byte();
      const free = 8 - this.bitCount;
      const take = left < free ? left : free;
      const chunk = (this.bytes[this.position - 1]! >>> (free - take)) & ((1 << take) - 1);
      word = (word << take) | chunk;
      this.bitCount = (this.bitCount + take) & 7;
      left -= take;
    }
    return word >>> 0;
  }

  end() {
    if (this.position !== this.bytes.length) throw new RangeError('Sample block has bytes after its samples.');
  }
}

/** The fewest decimals d with every value exactly s / 10^d, |s| < 2^49, or null when there is none. */
function decimalsOf(values: readonly number[]): number | null {
  let decimals = 0;
  for (const value of values) {
    if (!Number.isFinite(value) || Object.is(value, -0)) return null;
    while (decimals <= MAX_DECIMALS && !scalesExactly(value, decimals)) decimals++;
    if (decimals > MAX_DECIMALS) return null;
  }
  // A value that needed fewer decimals is checked again at the block's count.
  return values.every((value) => scalesExactly(value, decimals)) ? decimals : null;
}

function scalesExactly(value: number, decimals: number): boolean {
  const power = POWERS_OF_TEN[decimals]!;
  const scaled = Math.round(value * power);
  return Math.abs(scaled) < MAX_SCALED && scaled / power === value;
}

function writeTimes(writer: BlockWriter, times: readonly number[]) {
  let run = 0;
  let previousDelta = 0;
  for (let index = 0; index < times.length; index++) {
    const time = times[index]!;
    if (!Number.isSafeInteger(time)) throw new RangeError(`Sample time ${time} is not an integer millisecond.`);
    if (index > 0 && !(time > times[index - 1]!)) throw new RangeError('Sample times must be strictly increasing.');
    const delta = index === 0 ? NaN : time - times[index - 1]!;
    const deltaOfDelta = delta - previousDelta;
    if (!Number.isSafeInteger(delta) || !(Math.abs(deltaOfDelta) < MAX_MAGNITUDE)) {
      if (run > 0) writer.token(TAG_RUN, run);
      run = 0;
      writer.token(TAG_ABSOLUTE, time < 0 ? 1 : 0);
      writer.uint(Math.abs(time));
      previousDelta = 0;
    } else if (deltaOfDelta === 0) {
      run++;
    } else {
      if (run > 0) writer.token(TAG_RUN, run);
      run = 0;
      writer.step(deltaOfDelta);
      previousDelta = delta;
    }
  }
  if (run > 0) writer.token(TAG_RUN, run);
}

function writeScaledValues(writer: BlockWriter, values: readonly number[], decimals: number) {
  const power = POWERS_OF_TEN[decimals]!;
  let run = 0;
  let previous = 0;
  for (const value of values) {
    const scaled = Math.round(value * power);
    if (scaled === previous) {
      run++;
      continue;
    }
    if (run > 0) writer.token(TAG_RUN, run);
    run = 0;
    writer.step(scaled - previous);
    previous = scaled;
  }
  if (run > 0) writer.token(TAG_RUN, run);
}

function writeXorValues(writer: BlockWriter, values: readonly number[]) {
  let previousHigh = 0;
  let previousLow = 0;
  let storedLeading = -1;
  for (let index = 0; index < values.length; index++) {
    floatView[0] = values[index]!;
    const high = wordView[HIGH]!;
    const low = wordView[LOW]!;
    if (index === 0) {
      writer.bits(high, 32);
      writer.bits(low, 32);
    } else {
      const xorHigh = (high ^ previousHigh) >>> 0;
      const xorLow = (low ^ previousLow) >>> 0;
      if (xorHigh === 0 && xorLow === 0) {
        writer.bits(0b00, 2);
      } else {
        const leadingCode = LEADING_CODE[xorHigh !== 0 ? Math.clz32(xorHigh) : 32 + Math.clz32(xorLow)]!;
        const leading = LEADING_ZEROS[leadingCode]!;
        const trailing = xorLow !== 0 ? trailingZeros32(xorLow) : 32 + trailingZeros32(xorHigh);
        if (trailing > TRAILING_THRESHOLD) {
          const length = 64 - leading - trailing;
          writer.bits(0b01, 2);
          writer.bits(leadingCode, 3);
          writer.bits(length, 6);
          writeMeaningful(writer, xorHigh, xorLow, trailing, length);
          storedLeading = -1;
        } else {
          if (leading === storedLeading) {
            writer.bits(0b10, 2);
          } else {
            writer.bits(0b11, 2);
            writer.bits(leadingCode, 3);
            storedLeading = leading;
          }
          writeMeaningful(writer, xorHigh, xorLow, 0, 64 - leading);
        }
      }
    }
    previousHigh = high;
    previousLow = low;
  }
}

/** The 64-bit word high:low shifted right by `trailing`, its low `length` bits. */
function writeMeaningful(writer: BlockWriter, high: number, low: number, trailing: number, length: number) {
  if (trailing >= 32) {
    writer.bits(high >>> (trailing - 32), length);
    return;
  }
  const shiftedLow = trailing === 0 ? low : ((low >>> trailing) | (high << (32 - trailing))) >>> 0;
  const shiftedHigh = trailing === 0 ? high : high >>> trailing;
  if (length > 32) writer.bits(shiftedHigh, length - 32);
  writer.bits(shiftedLow, length > 32 ? 32 : length);
}

/**
 * One channel's samples as a block: `times` integer milliseconds since the epoch, strictly
 * increasing; `values` any float64 each, as many as the times.
 */
export function encodeSampleBlock(times: readonly number[], values: readonly number[]): Uint8Array {
  if (times.length !== values.length) {
    throw new RangeError(
      `A sample block needs as many values as times (${values.length} values, ${times.length} times).`,
    );
  }
  // Per sample at most 10 bytes of time tokens and 77 bits of value (2 control, 5 + 6 window, 64).
  const writer = new BlockWriter(16 + times.length * 20);
  const decimals = decimalsOf(values);
  writer.byte(VERSION);
  writer.uint(times.length);
  writer.byte(decimals === null ? MODE_XOR : 1 + decimals);
  writeTimes(writer, times);
  if (decimals === null) writeXorValues(writer, values);
  else writeScaledValues(writer, values, decimals);
  return writer.finish();
}

/** The samples of a block written by `encodeSampleBlock`, exactly as they were given. */
export function decodeSampleBlock(bytes: Uint8Array): { times: number[]; values: number[] } {
  const reader = new BlockReader(bytes);
  const version = reader.byte();
  if (version !== VERSION) throw new RangeError(`Sample block version ${version} is not known.`);
  const count = reader.uint();
  const mode = reader.byte();
  if (mode > 1 + MAX_DECIMALS) throw new RangeError(`Sample block value mode ${mode} is not known.`);
  const times = readTimes(reader, count);
  const values = mode === MODE_XOR ? readXorValues(reader, count) : readScaledValues(reader, count, mode - 1);
  reader.end();
  return { times, values };
}

function readTimes(reader: BlockReader, count: number): number[] {
  const times: number[] = [];
  let time = 0;
  let delta = 0;
  while (times.length < count) {
    const token = reader.uint();
    const tag = token % 4;
    const magnitude = (token - tag) / 4;
    if (tag === TAG_RUN) {
      if (times.length === 0 || times.length + magnitude > count) throw new RangeError('Sample block times overrun.');
      for (let step = 0; step < magnitude; step++) {
        time += delta;
        times.push(time);
      }
    } else if (tag === TAG_ABSOLUTE) {
      const absolute = reader.uint();
      time = magnitude === 1 ? -absolute : absolute;
      delta = 0;
      times.push(time);
    } else {
      if (times.length === 0) throw new RangeError('Sample block times start without an absolute time.');
      delta += tag === TAG_PLUS ? magnitude : -magnitude;
      time += delta;
      times.push(time);
    }
  }
  return times;
}

function readScaledValues(reader: BlockReader, count: number, decimals: number): number[] {
  const power = POWERS_OF_TEN[decimals]!;
  const values: number[] = [];
  let scaled = 0;
  while (values.length < count) {
    const token = reader.uint();
    const tag = token % 4;
    const magnitude = (token - tag) / 4;
    if (tag === TAG_RUN) {
      if (values.length + magnitude > count) throw new RangeError('Sample block values overrun.');
      const value = scaled / power;
      for (let step = 0; step < magnitude; step++) values.push(value);
    } else if (tag === TAG_ABSOLUTE) {
      throw new RangeError('Sample block values hold an unknown token.');
    } else {
      scaled += tag === TAG_PLUS ? magnitude : -magnitude;
      values.push(scaled / power);
    }
  }
  return values;
}

function readXorValues(reader: BlockReader, count: number): number[] {
  const values: number[] = [];
  let high = 0;
  let low = 0;
  let storedLeading = 0;
  for (let index = 0; index < count; index++) {
    if (index === 0) {
      high = reader.bits(32);
      low = reader.bits(32);
    } else {
      const control = reader.bits(2);
      if (control !== 0b00) {
        let trailing = 0;
        let length: number;
        if (control === 0b01) {
          const leading = LEADING_ZEROS[reader.bits(3)]!;
          length = reader.bits(6);
          trailing = 64 - leading - length;
          if (length === 0 || trailing < 0) throw new RangeError('Sample block holds a malformed XOR window.');
        } else {
          if (control === 0b11) storedLeading = LEADING_ZEROS[reader.bits(3)]!;
          length = 64 - storedLeading;
        }
        const meaningfulHigh = length > 32 ? reader.bits(length - 32) : 0;
        const meaningfulLow = reader.bits(length > 32 ? 32 : length);
        // Shift meaningfulHigh:meaningfulLow left by `trailing` and apply it.
        if (trailing >= 32) {
          high = (high ^ (meaningfulLow << (trailing - 32))) >>> 0;
        } else if (trailing === 0) {
          high = (high ^ meaningfulHigh) >>> 0;
          low = (low ^ meaningfulLow) >>> 0;
        } else {
          high = (high ^ ((meaningfulHigh << trailing) | (meaningfulLow >>> (32 - trailing)))) >>> 0;
          low = (low ^ (meaningfulLow << trailing)) >>> 0;
        }
      }
    }
    wordView[HIGH] = high;
    wordView[LOW] = low;
    values.push(floatView[0]!);
  }
  return values;
}
