import type { ColumnValueType } from './device-columns';

/**
 * Sorting of the device table (specification core §2, application §5): empty values last, whichever
 * the direction; text, number, version (dotted parts) and date types each compare their own way.
 * Each value is turned into a sort key once, so sorting 100,000 rows compares cheap keys instead of
 * parsing versions or folding case inside the comparator.
 */

/** A cell as the table holds it; `object` columns hold a record of named parts. */
export type CellValue = string | number | boolean | null | undefined | Readonly<Record<string, unknown>>;

/** A comparable key: a number, a folded text, or a tuple for versions and named versions. */
export type SortKey = number | string | readonly (number | string)[];

export type SortDirection = 'asc' | 'desc';

/** Digit runs are padded to this width, so `Row 9` sorts before `Row 10` with plain comparison. */
const NATURAL_DIGITS = 20;

/** The text of an `object` cell: its non-empty parts, space-separated, in key order. */
export function objectText(value: Readonly<Record<string, unknown>>): string {
  return Object.values(value)
    .filter((part) => part !== null && part !== undefined && String(part).trim() !== '')
    .map(String)
    .join(' ');
}

/** True for a value that counts as empty: missing, blank text, NaN, or an object with no parts. */
export function isEmptyCell(value: CellValue): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return Number.isNaN(value);
  if (typeof value === 'boolean') return false;
  return objectText(value) === '';
}

const ZEROS = '0'.repeat(NATURAL_DIGITS);
const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Text folded for comparison: case-insensitive, and digit runs compared by value (`Sprayer Row 2`
 * before `Sprayer Row 10`), which is how people read device names and serials. Written as a loop
 * rather than a regular expression with a callback: a first sort of 100,000 serials keys each one.
 */
export function textSortKey(text: string): string {
  const folded = text.trim().toLowerCase();
  let start = 0;
  while (start < folded.length && !isDigit(folded.charCodeAt(start))) start += 1;
  if (start === folded.length) return folded;
  let key = folded.slice(0, start);
  for (let i = start; i < folded.length;) {
    let end = i;
    if (isDigit(folded.charCodeAt(i))) {
      while (end < folded.length && isDigit(folded.charCodeAt(end))) end += 1;
      let first = i;
      while (first < end - 1 && folded.charCodeAt(first) === 48) first += 1;
      const digits = folded.slice(first, end);
      key += digits.length >= NATURAL_DIGITS ? digits : ZEROS.slice(digits.length) + digits;
    } else {
      while (end < folded.length && !isDigit(folded.charCodeAt(end))) end += 1;
      key += folded.slice(i, end);
    }
    i = end;
  }
  return key;
}

/**
 * The integer parts of a dotted version (`4.10.2` -> [4, 10, 2]), with trailing zeros dropped so
 * `1.0` equals `1`. A part that does not start with digits counts as 0, as `compareVersions` reads it.
 */
export function versionSortKey(version: string): number[] {
  const parts = version
    .trim()
    .split('.')
    .map((part) => {
      const digits = /^[0-9]+/.exec(part.trim());
      return digits ? Number(digits[0]) : 0;
    });
  while (parts.length > 1 && parts[parts.length - 1] === 0) parts.pop();
  return parts;
}

/**
 * A named version (`Vats 4.2`, `BREW 3.1`): the name folded as text, then the version's parts. A
 * string without a version sorts by its name alone, before the same name with a version.
 */
export function namedVersionSortKey(text: string): (string | number)[] {
  const match = /^(.*?)\s*v?([0-9]+(?:\.[0-9]+)*)\s*$/i.exec(text.trim());
  if (!match) return [textSortKey(text)];
  return [textSortKey(match[1] ?? ''), ...versionSortKey(match[2] ?? '')];
}

function dateValue(value: CellValue): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Date.parse(value);
  return Number.NaN;
}

function textOf(value: CellValue): string {
  if (typeof value === 'object' && value !== null) return objectText(value);
  return String(value);
}

/** The sort key of a non-empty cell of a column of `type`, or null for an empty cell. */
export function sortKeyOf(type: ColumnValueType, value: CellValue): SortKey | null {
  if (isEmptyCell(value)) return null;
  switch (type) {
    case 'number': {
      const number = typeof value === 'number' ? value : Number(textOf(value));
      return Number.isNaN(number) ? null : number;
    }
    case 'dateTime': {
      const time = dateValue(value);
      return Number.isNaN(time) ? null : time;
    }
    case 'boolean':
      return value === true || value === 'true' ? 1 : 0;
    case 'version':
      return versionSortKey(textOf(value));
    case 'stringAndVersion':
      return namedVersionSortKey(textOf(value));
    case 'string':
    case 'object':
      return textSortKey(textOf(value));
  }
}

function compareParts(a: number | string, b: number | string): number {
  if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
  // A name (text) and a version part never share a position in well-formed keys; numbers first.
  return typeof a === 'number' ? -1 : 1;
}

/** Compares two keys of the same column type: negative, zero or positive. */
export function compareSortKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const left = typeof a === 'object' ? a : [a];
  const right = typeof b === 'object' ? b : [b];
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const difference = compareParts(left[i]!, right[i]!);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/**
 * Compares two cells of a column, by their {@link sortKeyOf} keys, for a sort in `direction`: empty
 * cells (a null key) go last in either direction. Answers negative when `a` is shown first.
 */
export function compareCellKeys(a: SortKey | null, b: SortKey | null, direction: SortDirection): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = compareSortKeys(a, b);
  return direction === 'asc' ? order : -order;
}

/**
 * Items sorted by one column: stable (ties keep their order), empty values last, keys computed once
 * per item. Answers a new array.
 */
export function sortByColumn<T>(
  items: readonly T[],
  type: ColumnValueType,
  valueOf: (item: T) => CellValue,
  direction: SortDirection,
): T[] {
  const keys = items.map((item) => sortKeyOf(type, valueOf(item)));
  const order = items.map((_, index) => index);
  order.sort((i, j) => compareCellKeys(keys[i] ?? null, keys[j] ?? null, direction) || i - j);
  return order.map((index) => items[index]!);
}

/*
 * Sort keys as runs of integer codes, for sorting a large table on typed arrays. Comparing two keys'
 * codes position by position (a key that ends first is smaller) orders them exactly as
 * `compareSortKeys` orders their `sortKeyOf` keys. Text characters are spread out (`(code + 1) * 32`)
 * so that a digit run shorter than NATURAL_DIGITS can be written as one marker (between the codes of
 * `0` and `1`, ordered by the run's length) and its digits, instead of the padding `textSortKey`
 * writes: a UUID's key is then about as long as the UUID rather than five times as long.
 */
const CODE_SPREAD = 32;
const characterCode = (code: number) => (code + 1) * CODE_SPREAD;
const SHORT_DIGIT_RUN = characterCode(48);
/** Within a tuple key: a text part ends before any of its characters; a number part comes first. */
const PART_END = 0;
const NUMBER_PART = 1;
const TEXT_PART = 2;

const numberBits = new Float64Array(1);
const numberWords = new Uint32Array(numberBits.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Appends sort keys as integer codes to one growing buffer; see `compareSortKeyCodes`. */
export class SortKeyCodes {
  codes: Int32Array;
  length = 0;

  constructor(expectedLength = 1024) {
    this.codes = new Int32Array(Math.max(16, expectedLength));
  }

  private reserve(more: number): void {
    if (this.length + more <= this.codes.length) return;
    const grown = new Int32Array(Math.max(this.codes.length * 2, this.length + more));
    grown.set(this.codes.subarray(0, this.length));
    this.codes = grown;
  }

  /**
   * Appends the key of a cell of a column of `type` and answers true, or answers false and appends
   * nothing for an empty cell. Number, date and boolean keys are numbers: sort those as numbers.
   */
  append(type: ColumnValueType, value: CellValue): boolean {
    if (type === 'string' && typeof value === 'string') {
      const folded = value.trim().toLowerCase();
      if (folded === '') return false;
      this.appendFolded(folded);
      return true;
    }
    const key = sortKeyOf(type, value);
    if (key === null) return false;
    if (typeof key === 'number') this.appendNumberPart(key);
    else if (typeof key === 'string') this.appendText(key);
    else {
      for (const part of key) {
        if (typeof part === 'number') this.appendNumberPart(part);
        else this.appendTextPart(part);
      }
    }
    return true;
  }

  /** The text's `textSortKey`, each digit run shorter than NATURAL_DIGITS as a marker and its digits. */
  private appendText(text: string): void {
    this.appendFolded(text.trim().toLowerCase());
  }

  /** One pass over trimmed, lower-case text: a run's marker is written when its end is found. */
  private appendFolded(folded: string): void {
    const count = folded.length;
    this.reserve(count * 2);
    const codes = this.codes;
    let at = this.length;
    for (let i = 0; i < count;) {
      const code = folded.charCodeAt(i);
      i += 1;
      if (!isDigit(code)) {
        codes[at++] = characterCode(code);
        continue;
      }
      // A digit run: leading zeros dropped (one kept if that is all there is), then its marker.
      const marker = at++;
      let digits = 0;
      let next = code;
      for (;;) {
        if (next !== 48 || digits > 0) codes[marker + 1 + digits++] = characterCode(next);
        if (i === count) break;
        next = folded.charCodeAt(i);
        if (!isDigit(next)) break;
        i += 1;
      }
      if (digits === 0) codes[marker + 1 + digits++] = characterCode(48);
      if (digits < NATURAL_DIGITS) {
        codes[marker] = SHORT_DIGIT_RUN + digits;
        at = marker + 1 + digits;
      } else {
        // A long run is its digits alone (textSortKey leaves it unpadded).
        codes.copyWithin(marker, marker + 1, marker + 1 + digits);
        at = marker + digits;
      }
    }
    this.length = at;
  }

  /** A text part of a tuple key (already a `textSortKey`), compared character by character. */
  private appendTextPart(key: string): void {
    this.reserve(key.length + 2);
    this.codes[this.length++] = TEXT_PART;
    for (let i = 0; i < key.length; i += 1) this.codes[this.length++] = characterCode(key.charCodeAt(i));
    this.codes[this.length++] = PART_END;
  }

  /** A number part: its IEEE 754 bits made to order as the numbers do, in four 16-bit codes. */
  private appendNumberPart(part: number): void {
    this.reserve(5);
    numberBits[0] = part + 0; // -0 equals 0
    let high = numberWords[LITTLE_ENDIAN ? 1 : 0]!;
    let low = numberWords[LITTLE_ENDIAN ? 0 : 1]!;
    if (high >>> 31 === 1) [high, low] = [~high >>> 0, ~low >>> 0];
    else high = (high | 0x80000000) >>> 0;
    const codes = this.codes;
    codes[this.length++] = NUMBER_PART;
    codes[this.length++] = high >>> 16;
    codes[this.length++] = high & 0xffff;
    codes[this.length++] = low >>> 16;
    codes[this.length++] = low & 0xffff;
  }
}

/**
 * Compares two keys written by `SortKeyCodes` (`codes[start, end)` each): negative, zero or positive,
 * with the sign `compareSortKeys` gives their keys.
 */
export function compareSortKeyCodes(
  codes: Int32Array,
  aStart: number,
  aEnd: number,
  bStart: number,
  bEnd: number,
): number {
  const aLength = aEnd - aStart;
  const bLength = bEnd - bStart;
  const common = Math.min(aLength, bLength);
  for (let i = 0; i < common; i += 1) {
    const difference = codes[aStart + i]! - codes[bStart + i]!;
    if (difference !== 0) return difference;
  }
  return aLength - bLength;
}
