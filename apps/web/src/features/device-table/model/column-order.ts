import type { ColumnValueType } from '@fieldlink/domain/device-columns';
import { compareSortKeyCodes, sortKeyOf, SortKeyCodes, type CellValue } from '@fieldlink/domain/device-sort';

/** An ascending order of all rows: non-empty rows sorted, then the empty ones; ties in row order. */
export interface ColumnOrder {
  rows: Int32Array;
  /** Rows with a value; the rest are empty. */
  filled: number;
  /** `runStarts[i]` is 1 when `rows[i]` starts a run of equal keys (for a stable descending order). */
  runStarts: Uint8Array;
}

/** Answers false when the work should stop for now (the idle period is over). */
export type MoreTime = () => boolean;

/** Rows per slice of a pass over the table: about a millisecond of work at 100,000 rows. */
const SLICE = 8192;
/** Key slots visited by the text sort between looks at the clock. */
const SORT_SLICE = 40_000;
/** Repeated values are keyed once, while the memo is small; mostly distinct values fill it and end it. */
const MEMO_LIMIT = 4096;

const RADIX_BITS = 16;
const RADIX = 1 << RADIX_BITS;

/**
 * Sorts `rows` (given in row order) by `values[row]`, ascending, ties in the given order: a stable
 * LSD radix sort on the numbers' IEEE 754 bits, 16 bits a pass, a pass skipped when every row has
 * the same digit. No comparator: 100,000 dates sort in a few milliseconds. `values` must hold no NaN.
 */
export function sortRowsByNumber(rows: Int32Array, values: Float64Array): Int32Array {
  const count = values.length;
  // Sortable words: -0 as 0; a negative number's bits inverted, a positive one's sign bit set.
  const normalised = new Float64Array(count);
  for (const row of rows) normalised[row] = values[row]! + 0;
  const words = new Uint32Array(normalised.buffer);
  const [lowWord, highWord] = LITTLE_ENDIAN ? [0, 1] : [1, 0];
  const high = new Uint32Array(count);
  const low = new Uint32Array(count);
  for (const row of rows) {
    const h = words[row * 2 + highWord]!;
    const l = words[row * 2 + lowWord]!;
    if (h >>> 31 === 1) {
      high[row] = ~h >>> 0;
      low[row] = ~l >>> 0;
    } else {
      high[row] = (h | 0x80000000) >>> 0;
      low[row] = l;
    }
  }
  return sortByWords(Int32Array.from(rows), [high, low]);
}

/**
 * Sorts `ids` (row or key ids) by their words, `words[0][id]` first, then `words[1][id]` and so on,
 * ascending, ties in the given order: a stable LSD radix sort, 16 bits a pass, a pass skipped when
 * every id has the same digit. Sorts in place or in a second array: answers the sorted one.
 */
export function sortByWords(ids: Int32Array, words: readonly Uint32Array[]): Int32Array {
  let source = ids;
  let target: Int32Array = new Int32Array(ids.length);
  const counts = new Int32Array(RADIX);
  const length = ids.length;
  for (let pass = words.length * 2 - 1; pass >= 0; pass -= 1) {
    const word = words[pass >> 1]!;
    const shift = pass & 1 ? 0 : RADIX_BITS;
    counts.fill(0);
    for (let i = 0; i < length; i += 1) counts[(word[source[i]!]! >>> shift) & (RADIX - 1)]! += 1;
    if (length === 0 || counts[(word[source[0]!]! >>> shift) & (RADIX - 1)] === length) continue;
    let total = 0;
    for (let digit = 0; digit < RADIX; digit += 1) {
      const here = counts[digit]!;
      counts[digit] = total;
      total += here;
    }
    for (let i = 0; i < length; i += 1) {
      const id = source[i]!;
      target[counts[(word[id]! >>> shift) & (RADIX - 1)]!++] = id;
    }
    [source, target] = [target, source];
  }
  return source;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Ranges at least this long are split by a counting pass on one code position (MSD radix). */
const RADIX_RANGE = 1024;
/** Codes below this (characters up to U+00FF and their markers) are counted in a dense table. */
const RADIX_CODES = 8224;

/**
 * Sorts key ids by their codes (`SortKeyCodes`), one code position at a time: a long range is split
 * by a counting pass on the code at its depth (MSD radix), a shorter one by a three-way partition
 * (Bentley and Sedgewick's multikey quicksort), a handful by insertion. Shared prefixes (ICCIDs,
 * UUIDs) cost a pass each rather than a comparison each. Interruptible: `run` stops after a budget of
 * work and carries on where it stopped when called again. Marks keys equal to the one before them.
 */
export class KeySort {
  /** Pending ranges: start, end, depth. */
  private readonly stack: number[];
  /** `equalToPrevious[i]` is 1 when the key at sorted position `i` equals the one before it. */
  readonly equalToPrevious: Uint8Array;
  private readonly scratch: Int32Array;
  private readonly scratchCodes: Int32Array;
  private readonly counts = new Int32Array(RADIX_CODES + 2);

  /**
   * Sorts `ids` whole, or only the given ranges of it (start, end, depth: keys already known to
   * share their first `depth` codes), with `equalToPrevious` marks made so far.
   */
  constructor(
    readonly ids: Int32Array,
    private readonly codes: Int32Array,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    ranges: number[] = [0, ids.length, 0],
    equalToPrevious: Uint8Array = new Uint8Array(ids.length),
  ) {
    this.stack = ranges;
    this.equalToPrevious = equalToPrevious;
    this.scratch = new Int32Array(ids.length >= RADIX_RANGE ? ids.length : 0);
    this.scratchCodes = new Int32Array(this.scratch.length);
  }

  /** The code of key `id` at `depth`, or -1 past its end (shorter keys first). */
  private code(id: number, depth: number): number {
    const at = this.starts[id]! + depth;
    return at < this.ends[id]! ? this.codes[at]! : -1;
  }

  /** Sorts for about `budget` key visits; answers true when the ids are sorted. */
  run(budget = Number.POSITIVE_INFINITY): boolean {
    const { stack } = this;
    let spent = 0;
    while (stack.length > 0) {
      if (spent >= budget) return false;
      const depth = stack.pop()!;
      const end = stack.pop()!;
      const start = stack.pop()!;
      const size = end - start;
      spent += size;
      if (size < 2) continue;
      if (size <= 12) this.insertionSort(start, end, depth);
      else if (size < RADIX_RANGE || !this.countingSplit(start, end, depth)) this.partition(start, end, depth);
    }
    return true;
  }

  private markEqual(start: number, end: number): void {
    this.equalToPrevious.fill(1, start + 1, end);
  }

  /** Splits a range by its codes at `depth` with a counting pass; false when a code is too large. */
  private countingSplit(start: number, end: number, depth: number): boolean {
    const { ids, scratch, scratchCodes, counts, stack } = this;
    let low = RADIX_CODES;
    let high = -1;
    for (let i = start; i < end; i += 1) {
      const code = this.code(ids[i]!, depth);
      if (code >= RADIX_CODES) return false;
      scratchCodes[i] = code;
      if (code < low) low = code;
      if (code > high) high = code;
    }
    if (low === high) {
      // One code throughout: look one position further, or, past every key's end, all equal.
      if (low < 0) this.markEqual(start, end);
      else stack.push(start, end, depth + 1);
      return true;
    }
    const buckets = high - low + 1;
    counts.fill(0, 0, buckets + 1);
    for (let i = start; i < end; i += 1) counts[scratchCodes[i]! - low + 1]! += 1;
    let at = start;
    for (let bucket = 1; bucket <= buckets; bucket += 1) {
      const here = counts[bucket]!;
      counts[bucket] = at;
      if (here > 0) {
        const code = bucket - 1 + low;
        if (code < 0) this.markEqual(at, at + here);
        else stack.push(at, at + here, depth + 1);
      }
      at += here;
    }
    for (let i = start; i < end; i += 1) scratch[counts[scratchCodes[i]! - low + 1]!++] = ids[i]!;
    ids.set(scratch.subarray(start, end), start);
    return true;
  }

  /** Three-way partition on the code at `depth`: below, equal (one position further), above. */
  private partition(start: number, end: number, depth: number): void {
    const { ids, stack } = this;
    const size = end - start;
    const first = this.code(ids[start]!, depth);
    const middle = this.code(ids[start + (size >> 1)]!, depth);
    const last = this.code(ids[end - 1]!, depth);
    const pivot =
      first < middle
        ? middle < last
          ? middle
          : first < last
            ? last
            : first
        : first < last
          ? first
          : middle < last
            ? last
            : middle;
    let less = start;
    let greater = end - 1;
    for (let i = start; i <= greater;) {
      const id = ids[i]!;
      const code = this.code(id, depth);
      if (code < pivot) {
        ids[i] = ids[less]!;
        ids[less] = id;
        less += 1;
        i += 1;
      } else if (code > pivot) {
        ids[i] = ids[greater]!;
        ids[greater] = id;
        greater -= 1;
      } else i += 1;
    }
    stack.push(start, less, depth);
    // Keys that all ended here are equal: nothing more to order among them.
    if (pivot >= 0) stack.push(less, greater + 1, depth + 1);
    else this.markEqual(less, greater + 1);
    stack.push(greater + 1, end, depth);
  }

  private insertionSort(start: number, end: number, depth: number): void {
    const { ids, codes, starts, ends } = this;
    for (let i = start + 1; i < end; i += 1) {
      const id = ids[i]!;
      let j = i - 1;
      for (; j >= start; j -= 1) {
        const other = ids[j]!;
        if (compareSortKeyCodes(codes, starts[other]! + depth, ends[other]!, starts[id]! + depth, ends[id]!) <= 0) {
          break;
        }
        ids[j + 1] = other;
      }
      ids[j + 1] = id;
    }
    for (let i = start + 1; i < end; i += 1) {
      const [a, b] = [ids[i - 1]!, ids[i]!];
      if (compareSortKeyCodes(codes, starts[a]! + depth, ends[a]!, starts[b]! + depth, ends[b]!) === 0) {
        this.equalToPrevious[i] = 1;
      }
    }
  }
}

/**
 * The first step of sorting many keys: each key's codes after the prefix all keys share, as many as
 * fit, packed into two 32-bit words (codes ranked among those the column uses, so ten digits and a
 * few letters take 4 or 5 bits each), and the ids sorted by those words with a stable LSD radix sort.
 * Reading the codes in key order and sorting small integers touches memory in order, where sorting
 * by the codes themselves jumps to a key's codes at every look. Keys equal in their words are sorted
 * further by `KeySort` (ranges answered), or are equal when they all end within the words. Answers
 * null when a code is too large to rank (characters past U+00FF, number parts): sort by codes alone.
 */
export function prefixSort(
  codes: Int32Array,
  codeCount: number,
  starts: Int32Array,
  ends: Int32Array,
  keys: number,
): { ids: Int32Array; ranges: number[]; equalToPrevious: Uint8Array } | null {
  const seen = new Uint8Array(RADIX_CODES);
  for (let i = 0; i < codeCount; i += 1) {
    const code = codes[i]!;
    if (code >= RADIX_CODES) return null;
    seen[code] = 1;
  }
  const rankOf = new Uint16Array(RADIX_CODES);
  let symbols = 0;
  for (let code = 0; code < RADIX_CODES; code += 1) if (seen[code] === 1) rankOf[code] = ++symbols;
  // Rank 0 marks a key that has ended.
  const bits = 32 - Math.clz32(symbols);
  const perWord = Math.floor(32 / bits);
  // The codes every key shares at its start are skipped.
  let shared = keys > 0 ? ends[0]! - starts[0]! : 0;
  for (let key = 1; key < keys && shared > 0; key += 1) {
    const limit = Math.min(shared, ends[key]! - starts[key]!);
    let same = 0;
    while (same < limit && codes[starts[key]! + same] === codes[starts[0]! + same]) same += 1;
    shared = same;
  }
  const high = new Uint32Array(keys);
  const low = new Uint32Array(keys);
  const scale = 2 ** bits;
  for (let key = 0; key < keys; key += 1) {
    const start = starts[key]! + shared;
    const end = ends[key]!;
    let first = 0;
    let second = 0;
    for (let i = 0; i < perWord; i += 1) first = first * scale + (start + i < end ? rankOf[codes[start + i]!]! : 0);
    for (let i = perWord; i < 2 * perWord; i += 1) {
      second = second * scale + (start + i < end ? rankOf[codes[start + i]!]! : 0);
    }
    high[key] = first;
    low[key] = second;
  }
  const source = sortByWords(
    Int32Array.from({ length: keys }, (_, key) => key),
    [high, low],
  );
  const ranges: number[] = [];
  const equalToPrevious = new Uint8Array(keys);
  const packed = shared + 2 * perWord;
  for (let start = 0; start < keys;) {
    const first = source[start]!;
    let end = start + 1;
    while (end < keys && high[source[end]!] === high[first] && low[source[end]!] === low[first]) end += 1;
    if (end - start > 1) {
      // Equal words: either every key ended within them (all equal) or none did (sort on).
      if (ends[first]! - starts[first]! > packed) ranges.push(start, end, packed);
      else equalToPrevious.fill(1, start + 1, end);
    }
    start = end;
  }
  return { ids: source, ranges, equalToPrevious };
}

/**
 * Builds the ascending order of one column, in slices of about a millisecond: idle time can build it
 * a little at a time (a main thread never blocked for long), and a sort that needs it at once finishes
 * what is left. Numbers, dates and booleans sort by a radix sort of their values; other types by the
 * codes of their keys, each distinct key sorted once, then the rows placed by a counting pass, so ties
 * keep row order. A text column's order given ready (the server's order by name) is taken once one
 * pass has proved it is exactly that order (`checkedTextOrder`); else it is built as without it.
 */
export class ColumnOrderBuild {
  private readonly steps: Generator<void, ColumnOrder>;
  private result: ColumnOrder | null = null;

  constructor(type: ColumnValueType, cells: () => Generator<void, readonly CellValue[]>, given?: Int32Array) {
    this.steps = build(type, cells, given);
  }

  /** Works while `more` answers true; answers the order once built, else null. */
  run(more: MoreTime = () => true): ColumnOrder | null {
    while (!this.result) {
      const step = this.steps.next();
      // A step that threw ends the generator: its next answer would be `done` with no order.
      if (step.done && !step.value) throw new Error('The column order could not be built');
      if (step.done) this.result = step.value;
      else if (!more()) break;
    }
    return this.result;
  }
}

const NUMERIC_TYPES: ReadonlySet<ColumnValueType> = new Set(['number', 'dateTime', 'boolean']);

function* build(
  type: ColumnValueType,
  readCells: () => Generator<void, readonly CellValue[]>,
  given: Int32Array | undefined,
): Generator<void, ColumnOrder> {
  const cells = yield* readCells();
  if (NUMERIC_TYPES.has(type)) return yield* numberOrder(type, cells);
  const checked = given ? yield* checkedTextOrder(type, cells, given) : null;
  return checked ?? (yield* textOrder(type, cells));
}

/**
 * `given` as the column's ascending order, or null unless it is exactly the order `textOrder` builds:
 * every row once, the rows with a key first, each key at least the one before it (by the same codes
 * and comparison the sort uses) and equal keys in row order, then the empty rows in row order. One
 * pass, no sort: the keys of neighbours are compared as they are written.
 */
export function* checkedTextOrder(
  type: ColumnValueType,
  cells: readonly CellValue[],
  given: Int32Array,
): Generator<void, ColumnOrder | null> {
  const count = cells.length;
  if (given.length !== count) return null;
  const seen = new Uint8Array(count);
  const runStarts = new Uint8Array(count);
  // The previous row's key is kept at the start of the buffer, and each row's key written after it.
  const keys = new SortKeyCodes(1024);
  let previousEnd = 0;
  let previous = -1;
  /** Where the empty rows begin; the count while none is found yet. */
  let filled = count;
  for (let from = 0; from < count; from += SLICE) {
    for (let i = from; i < Math.min(count, from + SLICE); i += 1) {
      const row = given[i]!;
      if (!(row >= 0 && row < count) || seen[row] === 1) return null;
      seen[row] = 1;
      if (i > filled) {
        keys.length = 0;
        if (row < previous || keys.append(type, cells[row])) return null;
      } else {
        keys.length = previousEnd;
        if (!keys.append(type, cells[row])) filled = i;
        else {
          // This key against the one before it: never below it, and equal only after it in row order.
          const difference = i === 0 ? 1 : compareSortKeyCodes(keys.codes, previousEnd, keys.length, 0, previousEnd);
          if (difference < 0 || (difference === 0 && row < previous)) return null;
          runStarts[i] = difference > 0 ? 1 : 0;
          keys.codes.copyWithin(0, previousEnd, keys.length);
          previousEnd = keys.length - previousEnd;
        }
      }
      previous = row;
    }
    yield;
  }
  return { rows: given, filled, runStarts: runStarts.subarray(0, filled) };
}

/** A cell's number key (`sortKeyOf`), or NaN for an empty cell. */
function numberValue(type: ColumnValueType, cell: CellValue): number {
  if (typeof cell === 'number' && type !== 'boolean') return cell;
  const key = sortKeyOf(type, cell);
  return typeof key === 'number' ? key : Number.NaN;
}

function* numberOrder(type: ColumnValueType, cells: readonly CellValue[]): Generator<void, ColumnOrder> {
  const count = cells.length;
  const values = new Float64Array(count);
  const filledRows = new Int32Array(count);
  const emptyRows = new Int32Array(count);
  let filled = 0;
  let empty = 0;
  for (let from = 0; from < count; from += SLICE) {
    for (let row = from; row < Math.min(count, from + SLICE); row += 1) {
      const value = numberValue(type, cells[row]);
      values[row] = value;
      if (Number.isNaN(value)) emptyRows[empty++] = row;
      else filledRows[filled++] = row;
    }
    yield;
  }
  const sorted = sortRowsByNumber(filledRows.subarray(0, filled), values);
  yield;
  const runStarts = new Uint8Array(filled);
  for (let i = 0; i < filled; i += 1) {
    runStarts[i] = i === 0 || values[sorted[i - 1]!] !== values[sorted[i]!] ? 1 : 0;
  }
  const rows = new Int32Array(count);
  rows.set(sorted);
  rows.set(emptyRows.subarray(0, empty), filled);
  return { rows, filled, runStarts };
}

/** Digits in each part of a digit key's value: every part is below 10^9 and fits 32 bits. */
const PART_DIGITS = 9;

/** The rows of a digit column read so far: the value's parts of each filled row, and the empty rows. */
interface DigitKeys {
  /** The value's digits from the lowest: `low` the lowest nine, `middle` the next nine, `high` the rest. */
  high: Uint32Array;
  middle: Uint32Array;
  low: Uint32Array;
  filledRows: Int32Array;
  emptyRows: Int32Array;
  filled: number;
  empty: number;
}

/**
 * Reads rows `from` to `to` of a digit column into `keys`; answers false at a value that is not a run
 * of up to 19 digits (after leading zeros) or empty. A plain function rather than a step of the
 * generator, so that the engine optimises it whole after its first calls.
 */
function readDigitKeys(cells: readonly CellValue[], from: number, to: number, keys: DigitKeys): boolean {
  const { high, middle, low, filledRows, emptyRows } = keys;
  for (let row = from; row < to; row += 1) {
    const cell = cells[row];
    if (typeof cell !== 'string') {
      if (cell !== null && cell !== undefined) return false;
      emptyRows[keys.empty++] = row;
      continue;
    }
    const length = cell.length;
    const lowFrom = length > PART_DIGITS ? length - PART_DIGITS : 0;
    const middleFrom = lowFrom > PART_DIGITS ? lowFrom - PART_DIGITS : 0;
    let part = 0;
    let i = 0;
    // A value of more than 19 digits has a `high` part of 10 or more.
    for (; i < middleFrom; i += 1) {
      const digit = cell.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9 || (part = part * 10 + digit) >= 10) break;
    }
    if (i === middleFrom) {
      high[row] = part;
      part = 0;
      for (; i < lowFrom; i += 1) {
        const digit = cell.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) break;
        part = part * 10 + digit;
      }
    }
    if (i === lowFrom) {
      middle[row] = part;
      part = 0;
      for (; i < length; i += 1) {
        const digit = cell.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) break;
        part = part * 10 + digit;
      }
      low[row] = part;
    }
    if (i === length && length > 0) filledRows[keys.filled++] = row;
    else if (cell.trim() === '') emptyRows[keys.empty++] = row;
    else return false;
  }
  return true;
}

/**
 * The order of a text column whose every value is a run of digits (ICCIDs, IMEIs), or null when a
 * value is anything else (the order by key codes then follows). Such a key is the run's length
 * without leading zeros and its digits, which orders as the run's value: the value in three parts
 * of nine digits sorted by a radix sort, with no text keyed at all. Only runs of up to 19 digits
 * (after leading zeros) order by value (`textSortKey` pads them to 20 places; a longer run is its
 * digits alone): a longer one answers null.
 */
function* digitTextOrder(cells: readonly CellValue[]): Generator<void, ColumnOrder | null> {
  const count = cells.length;
  const keys: DigitKeys = {
    high: new Uint32Array(count),
    middle: new Uint32Array(count),
    low: new Uint32Array(count),
    filledRows: new Int32Array(count),
    emptyRows: new Int32Array(count),
    filled: 0,
    empty: 0,
  };
  for (let from = 0; from < count; from += SLICE) {
    if (!readDigitKeys(cells, from, Math.min(count, from + SLICE), keys)) return null;
    yield;
  }
  const { high, middle, low, filled, empty } = keys;
  const sorted = sortByWords(keys.filledRows.subarray(0, filled), [high, middle, low]);
  const rows = new Int32Array(count);
  rows.set(sorted);
  rows.set(keys.emptyRows.subarray(0, empty), filled);
  const runStarts = new Uint8Array(filled);
  for (let i = 0; i < filled; i += 1) {
    const row = sorted[i]!;
    const before = i === 0 ? -1 : sorted[i - 1]!;
    runStarts[i] =
      before < 0 || low[before] !== low[row] || middle[before] !== middle[row] || high[before] !== high[row] ? 1 : 0;
  }
  return { rows, filled, runStarts };
}

function* textOrder(type: ColumnValueType, cells: readonly CellValue[]): Generator<void, ColumnOrder> {
  if (type === 'string') {
    const byValue = yield* digitTextOrder(cells);
    if (byValue) return byValue;
  }
  const count = cells.length;
  // One key per distinct value while the memo lasts, else one per row; -1 for an empty cell.
  const keyOfRow = new Int32Array(count);
  const codes = new SortKeyCodes(count * 12);
  let starts = new Int32Array(Math.min(count, 1024));
  let ends = new Int32Array(starts.length);
  let keys = 0;
  const memo = new Map<unknown, number>();
  let memoOpen = true;
  for (let from = 0; from < count; from += SLICE) {
    for (let row = from; row < Math.min(count, from + SLICE); row += 1) {
      const cell = cells[row];
      const memoised = typeof cell !== 'object' || cell === null;
      if (memoised && memoOpen) {
        const known = memo.get(cell);
        if (known !== undefined) {
          keyOfRow[row] = known;
          continue;
        }
      }
      const start = codes.length;
      let key = -1;
      if (codes.append(type, cell)) {
        if (keys === starts.length) {
          const grownStarts = new Int32Array(Math.min(count, keys * 2));
          const grownEnds = new Int32Array(grownStarts.length);
          grownStarts.set(starts);
          grownEnds.set(ends);
          [starts, ends] = [grownStarts, grownEnds];
        }
        starts[keys] = start;
        ends[keys] = codes.length;
        key = keys;
        keys += 1;
      }
      keyOfRow[row] = key;
      if (memoised && memoOpen) {
        memo.set(cell, key);
        // Mostly distinct values (names, serials, ids) gain nothing from the memo: stop using it.
        if (memo.size >= MEMO_LIMIT) memoOpen = false;
      }
    }
    yield;
  }
  memo.clear();
  const packed = prefixSort(codes.codes, codes.length, starts, ends, keys);
  yield;
  const sort = packed
    ? new KeySort(packed.ids, codes.codes, starts, ends, packed.ranges, packed.equalToPrevious)
    : new KeySort(
        Int32Array.from({ length: keys }, (_, key) => key),
        codes.codes,
        starts,
        ends,
      );
  while (!sort.run(SORT_SLICE)) yield;
  // Equal keys (the same text in another case, values beyond the memo) share a rank.
  const rankOfKey = new Int32Array(keys);
  let rank = -1;
  for (let i = 0; i < keys; i += 1) {
    if (sort.equalToPrevious[i] === 0) rank += 1;
    rankOfKey[sort.ids[i]!] = rank;
  }
  yield;
  // Rows placed by rank in one counting pass over them in row order: ties keep row order.
  const positions = new Int32Array(rank + 2);
  let filled = 0;
  for (let row = 0; row < count; row += 1) {
    const key = keyOfRow[row]!;
    if (key >= 0) {
      positions[rankOfKey[key]! + 1]! += 1;
      filled += 1;
    }
  }
  for (let i = 1; i < positions.length; i += 1) positions[i]! += positions[i - 1]!;
  const rows = new Int32Array(count);
  const runStarts = new Uint8Array(filled);
  let empty = filled;
  for (let row = 0; row < count; row += 1) {
    const key = keyOfRow[row]!;
    if (key < 0) {
      rows[empty++] = row;
      continue;
    }
    const keyRank = rankOfKey[key]!;
    const at = positions[keyRank]!;
    rows[at] = row;
    positions[keyRank] = at + 1;
  }
  // A run starts where the rank changes.
  for (let i = 0; i < filled; i += 1) {
    runStarts[i] = i === 0 || rankOfKey[keyOfRow[rows[i - 1]!]!] !== rankOfKey[keyOfRow[rows[i]!]!] ? 1 : 0;
  }
  return { rows, filled, runStarts };
}
