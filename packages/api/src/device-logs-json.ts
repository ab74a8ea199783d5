import type { DeviceLogsAnswer } from './device-logs';

/**
 * A column of an answer: an array of numbers, or the typed array the server folded it into; either
 * is written as JSON writes the array of the same numbers.
 */
type Column = ArrayLike<number>;

/** A channel's log as the server may hold it: {@link ChannelLog}'s fields, columns of any kind. */
export type ChannelLogColumns =
  | { kind: 'raw'; t: Column; value: Column }
  | { kind: 'bins'; t: Column; min: Column; max: Column; avg: Column; last: Column };

/** A {@link DeviceLogsAnswer} whose columns may be typed arrays (a decade of 100 channels is 912,500 numbers). */
export interface DeviceLogsColumns extends Omit<DeviceLogsAnswer, 'channels'> {
  channels: Record<string, ChannelLogColumns>;
}

/**
 * The JSON text of a `GET /device-logs` answer, as UTF-8 bytes: exactly what `JSON.stringify` writes
 * for the answer built in the schema's key order with its columns as arrays (the property test in
 * device-logs-json.test.ts), in about a third of its time. A decade of 100 channels is 182,500 bins,
 * 912,500 numbers; most are integers (every bin start, and counts and readings of whole units) or
 * short decimals (readings of a few decimals, means of halves), which are written here digit pair by
 * digit pair into one growing byte buffer, where `JSON.stringify` formats every number that is not a
 * small integer with its shortest-round-trip routine. A column holding any other number is written by
 * `JSON.stringify` itself (non-finite numbers as `null`, as it does). The columns may be typed arrays,
 * as the server folds bins into them, so an answer needs no array of its own. The schema's compiled
 * serializer is not used: it checks each channel against both kinds of the union before writing it
 * (docs/decisions.md, "Serving a decade of 100 channels").
 */
export function deviceLogsJson(answer: DeviceLogsColumns): Uint8Array {
  const out = new JsonBytes(estimatedBytes(answer));
  out.ascii('{"deviceId":');
  out.string(answer.deviceId);
  for (const field of HEADER_NUMBERS) {
    out.ascii(`,"${field}":`);
    out.number(answer[field]);
  }
  out.ascii(',"channels":{');
  let first = true;
  for (const [code, log] of Object.entries(answer.channels)) {
    if (!first) out.byte(COMMA);
    first = false;
    out.string(code);
    out.byte(COLON);
    out.ascii(`{"kind":"${log.kind}"`);
    for (const field of log.kind === 'raw' ? RAW_COLUMNS : BIN_COLUMNS) {
      out.ascii(`,"${field}":`);
      out.numbers((log as Partial<Record<typeof field, Column>>)[field]!);
    }
    out.byte(CLOSE_BRACE);
  }
  out.ascii('}}');
  return out.bytes();
}

/** The answer's fields in the schema's order (DeviceLogsAnswer, RawChannelLog, BinnedChannelLog). */
const HEADER_NUMBERS = ['start', 'end', 'binCount', 'binWidth'] as const;
const RAW_COLUMNS = ['t', 'value'] as const;
const BIN_COLUMNS = ['t', 'min', 'max', 'avg', 'last'] as const;

/** A first guess at the answer's size: 16 bytes a number (a unix-ms time is 14 with its comma). */
function estimatedBytes(answer: DeviceLogsColumns): number {
  let numbers = 0;
  for (const log of Object.values(answer.channels)) numbers += log.t.length * (log.kind === 'raw' ? 2 : 5);
  return 256 + 64 * Object.keys(answer.channels).length + numbers * 16;
}

const COMMA = 0x2c;
const COLON = 0x3a;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
/**
 * The longest text of a safe integer (`-9007199254740991`) and its comma; a short decimal
 * ({@link writeShortDecimal}) is at most as long: a sign, 9 digits, the point, 6 digits, the comma.
 */
const MAX_NUMBER_BYTES = 18;
const POINT = 0x2e;
/** Short decimals: at most this many decimals, below this magnitude. */
const SHORT_DECIMALS = 6;
const SHORT_DECIMAL_LIMIT = 1e9;
/** 10^9: integers below it are written as one int32, larger safe integers as two parts of 9 digits. */
const BILLION = 1_000_000_000;

/** The two ASCII digits of 0..99, as one 16-bit pair per number (first digit first in memory). */
// TextEncoder is in every browser and in Node.js; this package compiles without DOM or Node types.
declare const TextEncoder: new () => {
  encodeInto(text: string, into: Uint8Array): { read: number; written: number };
};
const encoder = new TextEncoder();

const DIGIT_PAIRS = (() => {
  const pairs = new Uint8Array(200);
  for (let i = 0; i < 100; i += 1) {
    pairs[2 * i] = ZERO + Math.floor(i / 10);
    pairs[2 * i + 1] = ZERO + (i % 10);
  }
  return pairs;
})();

/**
 * The buffer answers are written into, kept from one answer to the next (up to
 * {@link MAX_KEPT_SCRATCH_BYTES}): a fresh one per answer cost more in page faults and zeroing than the
 * writing (a decade of 100 channels is written in 4.7 MB of a buffer of 14 MB sized for the worst).
 */
let scratch: Uint8Array = new Uint8Array(0);
const MAX_KEPT_SCRATCH_BYTES = 32 * 1024 * 1024;

/** A byte buffer that doubles when full, with JSON's writers; its bytes are copied out at the end. */
class JsonBytes {
  private buffer: Uint8Array;
  private at = 0;

  constructor(capacity: number) {
    this.buffer = scratch.length >= capacity ? scratch : new Uint8Array(capacity);
  }

  /** The text written, in a buffer of its own; the scratch buffer is kept for the next answer. */
  bytes(): Uint8Array {
    const bytes = this.buffer.slice(0, this.at);
    if (this.buffer.length <= MAX_KEPT_SCRATCH_BYTES && this.buffer.length > scratch.length) scratch = this.buffer;
    return bytes;
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.at + bytes));
    bigger.set(this.buffer.subarray(0, this.at));
    this.buffer = bigger;
  }

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.at++] = value;
  }

  /** Text known to be ASCII (the answer's keys and punctuation). */
  ascii(text: string): void {
    this.reserve(text.length);
    for (let i = 0; i < text.length; i += 1) this.buffer[this.at++] = text.charCodeAt(i);
  }

  /**
   * A string as JSON writes it (quoted and escaped), in UTF-8. JSON.stringify escapes lone
   * surrogates, so its text pairs every surrogate.
   */
  string(value: string): void {
    const text = JSON.stringify(value);
    this.reserve(text.length * 3);
    const buffer = this.buffer;
    let at = this.at;
    for (let i = 0; i < text.length; i += 1) {
      let code = text.charCodeAt(i);
      if (code < 0x80) buffer[at++] = code;
      else if (code < 0x800) {
        buffer[at++] = 0xc0 | (code >> 6);
        buffer[at++] = 0x80 | (code & 0x3f);
      } else {
        if (code >= 0xd800 && code <= 0xdbff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
          buffer[at++] = 0xf0 | (code >> 18);
          buffer[at++] = 0x80 | ((code >> 12) & 0x3f);
        } else buffer[at++] = 0xe0 | (code >> 12);
        buffer[at++] = 0x80 | ((code >> 6) & 0x3f);
        buffer[at++] = 0x80 | (code & 0x3f);
      }
    }
    this.at = at;
  }

  /**
   * An array of numbers. Safe integers and short decimals (a reading of a few decimals, a mean of
   * halves) are written here; an array holding any other number (a mean of many readings) by
   * `JSON.stringify` itself, whose shortest-round-trip formatting is native, copied in.
   */
  numbers(values: Column): void {
    this.reserve(2 + values.length * MAX_NUMBER_BYTES);
    const buffer = this.buffer;
    const first = this.at;
    let at = first;
    buffer[at++] = OPEN_BRACKET;
    for (let i = 0; i < values.length; i += 1) {
      if (i > 0) buffer[at++] = COMMA;
      const value = values[i]!;
      if (Number.isSafeInteger(value)) at = writeInteger(buffer, at, value);
      else {
        at = writeShortDecimal(buffer, at, value);
        if (at < 0) {
          // Not all integers or short decimals: the array again, by JSON.stringify.
          this.at = first;
          this.json(JSON.stringify(Array.isArray(values) ? values : Array.from(values)));
          return;
        }
      }
    }
    buffer[at++] = CLOSE_BRACKET;
    this.at = at;
  }

  /** ASCII text of any length (JSON.stringify's text of numbers), copied in natively. */
  private json(text: string): void {
    this.reserve(text.length);
    this.at += encoder.encodeInto(text, this.buffer.subarray(this.at)).written;
  }

  /** A number as JSON.stringify writes it. */
  number(value: number): void {
    if (Number.isSafeInteger(value)) {
      this.reserve(MAX_NUMBER_BYTES);
      this.at = writeInteger(this.buffer, this.at, value);
    } else this.json(JSON.stringify(value));
  }
}

/** A safe integer at `at` as JSON writes it; answers where it ends. */
function writeInteger(buffer: Uint8Array, at: number, value: number): number {
  let n = value;
  if (n < 0) {
    buffer[at++] = MINUS;
    n = -n;
  }
  if (n < BILLION) return writeDigits(buffer, at, n, digitCount(n));
  const high = Math.floor(n / BILLION);
  return writeDigits(buffer, writeDigits(buffer, at, high, digitCount(high)), n - high * BILLION, 9);
}

/**
 * A number that is not an integer as JSON writes it, when it is a short decimal: `m / 10^d` for an
 * integer m and 1 <= d <= 6, of magnitude from 10^-6 to below 10^9 (a reading of a few decimals, a
 * mean of halves); answers where it ends, or -1 for any other number (JSON.stringify writes those).
 *
 * Why this is JSON.stringify's text (ECMAScript Number::toString: the fewest significant digits that
 * read back as the number; fixed notation from 10^-6 to 10^21): for each d from 1 up, m is taken as
 * round(|value| × 10^d), and `m / 10^d === |value|` tests that the text of m with d decimals reads
 * back as the number (the division is correctly rounded, as reading the text is). Below 10^15,
 * |value| × 10^d is computed within 1/8 of its exact value, and any integer whose d-decimal text
 * reads back lies within 1/8 of that exact value too: so the rounding finds it when there is one,
 * and there is at most one. A text with fewer significant digits would have fewer decimals, which
 * were tried first. The fast-check test holds this against JSON.stringify.
 */
function writeShortDecimal(buffer: Uint8Array, at: number, value: number): number {
  const magnitude = value < 0 ? -value : value;
  if (!(magnitude >= 1e-6 && magnitude < SHORT_DECIMAL_LIMIT)) return -1;
  for (let decimals = 1, scale = 10; decimals <= SHORT_DECIMALS; decimals += 1, scale *= 10) {
    const scaled = Math.round(magnitude * scale);
    if (scaled / scale !== magnitude) continue;
    if (value < 0) buffer[at++] = MINUS;
    // Exact: scaled < 10^15, so the quotient's rounding is far less than 1 / scale.
    const whole = Math.floor(scaled / scale);
    at = writeDigits(buffer, at, whole, digitCount(whole));
    buffer[at++] = POINT;
    return writeDigits(buffer, at, scaled - whole * scale, decimals);
  }
  return -1;
}

/** Digits of 0 <= n < 10^9. */
function digitCount(n: number): number {
  if (n < 10_000) return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : 4;
  return n < 100_000 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : 9;
}

/**
 * 0 <= n < 10^9 as `count` digits at `at` (leading zeros when it has fewer), written from the last
 * pair back; answers where they end.
 */
function writeDigits(buffer: Uint8Array, at: number, n: number, count: number): number {
  const end = at + count;
  let to = end;
  let rest = n | 0;
  while (rest >= 100) {
    const pair = (rest % 100) * 2;
    rest = (rest / 100) | 0;
    buffer[--to] = DIGIT_PAIRS[pair + 1]!;
    buffer[--to] = DIGIT_PAIRS[pair]!;
  }
  if (rest >= 10) {
    buffer[--to] = DIGIT_PAIRS[rest * 2 + 1]!;
    buffer[--to] = DIGIT_PAIRS[rest * 2]!;
  } else buffer[--to] = ZERO + rest;
  while (to > at) buffer[--to] = ZERO;
  return end;
}
