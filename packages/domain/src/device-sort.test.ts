import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ColumnValueType } from './device-columns';
import {
  compareCellKeys,
  compareSortKeyCodes,
  compareSortKeys,
  isEmptyCell,
  namedVersionSortKey,
  objectText,
  sortByColumn,
  sortKeyOf,
  SortKeyCodes,
  textSortKey,
  versionSortKey,
  type CellValue,
} from './device-sort';
import { compareVersions } from './macro';

/** Compares two cells as the sort does: by their keys, empty last. */
const compareCells = (type: ColumnValueType, a: CellValue, b: CellValue, direction: 'asc' | 'desc') =>
  compareCellKeys(sortKeyOf(type, a), sortKeyOf(type, b), direction);

const sorted = (type: ColumnValueType, values: CellValue[], direction: 'asc' | 'desc' = 'asc') =>
  sortByColumn(values, type, (value) => value, direction);

describe('isEmptyCell', () => {
  it.each([
    [null, true],
    [undefined, true],
    ['', true],
    ['   ', true],
    [Number.NaN, true],
    [{}, true],
    [{ base: null, custom: '' }, true],
    [0, false],
    [false, false],
    ['0', false],
    [{ base: 'GEN 2.4' }, false],
  ])('%j -> %s', (value, empty) => expect(isEmptyCell(value)).toBe(empty));
});

describe('sorting by type', () => {
  it.each<[string, ColumnValueType, CellValue[], CellValue[]]>([
    ['numbers by value, not as text', 'number', [10, 9, -1, 100], [-1, 9, 10, 100]],
    ['text case-insensitively', 'string', ['beta', 'Alpha', 'ALPHA2', 'alpha1'], ['Alpha', 'alpha1', 'ALPHA2', 'beta']],
    ['digit runs in text by value', 'string', ['Row 10', 'Row 9', 'Row 1'], ['Row 1', 'Row 9', 'Row 10']],
    ['versions by dotted parts', 'version', ['4.10.0', '4.9.9', '4.2', '10.0'], ['4.2', '4.9.9', '4.10.0', '10.0']],
    ['equal versions keep their order', 'version', ['1.0', '1', '1.0.0'], ['1.0', '1', '1.0.0']],
    [
      'named versions by name, then version',
      'stringAndVersion',
      ['Vats 4.10', 'BREW 3.1', 'Vats 4.2', 'Mosnix 1.6'],
      ['BREW 3.1', 'Mosnix 1.6', 'Vats 4.2', 'Vats 4.10'],
    ],
    [
      'dates as dates',
      'dateTime',
      [Date.UTC(2026, 0, 2), Date.UTC(2025, 11, 31), Date.UTC(2026, 0, 1)],
      [Date.UTC(2025, 11, 31), Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2)],
    ],
    ['date texts as dates', 'dateTime', ['2026-02-01', '2025-12-31T23:00Z'], ['2025-12-31T23:00Z', '2026-02-01']],
    ['booleans false first', 'boolean', [true, false, true], [false, true, true]],
    [
      'objects by their text',
      'object',
      [{ base: 'Z 1' }, { base: 'A 1', custom: 'B' }],
      [{ base: 'A 1', custom: 'B' }, { base: 'Z 1' }],
    ],
  ])('%s', (_label, type, input, expected) => expect(sorted(type, input)).toEqual(expected));

  it.each<[ColumnValueType, CellValue[]]>([
    ['number', [3, null, 1, Number.NaN, 2]],
    ['string', ['b', '', 'a', null, '  ']],
    ['version', ['2.0', null, '1.0']],
    ['dateTime', [null, 2, 1]],
    ['boolean', [null, true, false]],
  ])('puts empty %s values last in both directions', (type, values) => {
    for (const direction of ['asc', 'desc'] as const) {
      const result = sorted(type, values, direction);
      const firstEmpty = result.findIndex(isEmptyCell);
      expect(result.slice(firstEmpty).every(isEmptyCell)).toBe(true);
      expect(result.slice(0, firstEmpty).some(isEmptyCell)).toBe(false);
    }
  });

  it('reverses the non-empty values for a descending sort', () => {
    expect(sorted('version', ['1.2', null, '1.10', '1.9'], 'desc')).toEqual(['1.10', '1.9', '1.2', null]);
    expect(sorted('number', [1, null, 3, 2], 'desc')).toEqual([3, 2, 1, null]);
  });
});

describe('compareCellKeys', () => {
  it.each<[ColumnValueType, CellValue, CellValue, number]>([
    ['number', 2, 10, -1],
    ['string', '2', '10', -1],
    ['version', '1.10', '1.9', 1],
    ['version', '1.0', '1', 0],
    ['string', 'abc', 'ABC', 0],
    ['number', null, 1, 1],
    ['number', 1, null, -1],
    ['number', null, null, 0],
  ])('%s: %j vs %j -> %i', (type, a, b, sign) => expect(Math.sign(compareCells(type, a, b, 'asc'))).toBe(sign));
});

describe('sort keys', () => {
  it.each([
    ['Sprayer Row 02', 'sprayer row 00000000000000000002'],
    ['ABC', 'abc'],
  ])('textSortKey(%j)', (text, key) => expect(textSortKey(text)).toBe(key));

  it('pads every digit run to 20 places, leading zeros dropped (checked against a regular expression)', () => {
    const reference = (text: string) =>
      text
        .trim()
        .toLowerCase()
        .replace(/[0-9]+/g, (run) => {
          const digits = run.replace(/^0+(?=[0-9])/, '');
          return digits.length >= 20 ? digits : digits.padStart(20, '0');
        });
    const text = fc
      .array(
        fc.oneof(fc.constantFrom('a', 'B', ' ', '-', '0', '00'), fc.nat().map(String), fc.string({ maxLength: 3 })),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(textSortKey(value)).toBe(reference(value));
      }),
    );
  });

  it.each([
    ['4.12.3', [4, 12, 3]],
    ['1.0.0', [1]],
    ['v2', [0]],
    ['2.x.1', [2, 0, 1]],
    ['1. 2', [1, 2]],
  ])('versionSortKey(%j)', (version, key) => expect(versionSortKey(version)).toEqual(key));

  it.each([
    ['Vats 4.2', ['vats', 4, 2]],
    ['BrewCtl v7.52', ['brewctl', 7, 52]],
    ['Unfieldlinkd', ['unfieldlinkd']],
    ['Vats4.2', ['vats', 4, 2]],
    ['Vats 10', ['vats', 10]],
    ['Vats 4.2x', [textSortKey('Vats 4.2x')]],
    ['Vats 4.2 beta', [textSortKey('Vats 4.2 beta')]],
  ])('namedVersionSortKey(%j)', (text, key) => expect(namedVersionSortKey(text)).toEqual(key));

  it.each<[ColumnValueType, CellValue, ReturnType<typeof sortKeyOf>]>([
    ['number', '12', 12],
    ['number', 'twelve', null],
    ['boolean', 'true', 1],
    ['boolean', false, 0],
    ['version', '4.2', [4, 2]],
    ['stringAndVersion', 'Vats 4.2', ['vats', 4, 2]],
    ['string', 'ab', 'ab'],
    ['dateTime', '2026-01-01T00:00:00Z', Date.UTC(2026, 0, 1)],
    ['dateTime', 1_700_000_000_000, 1_700_000_000_000],
    ['object', { base: 'GEN', custom: '2' }, textSortKey('GEN 2')],
  ])('sortKeyOf(%s, %j) is %j', (type, value, key) => expect(sortKeyOf(type, value)).toEqual(key));

  it('reads an object cell as its non-blank parts, space-separated', () => {
    expect(objectText({ a: 'x', b: '  ', c: null, d: 'y', e: 3 })).toBe('x y 3');
  });

  it.each<[Parameters<typeof compareSortKeys>[0], Parameters<typeof compareSortKeys>[1], number]>([
    [['a'], [1], 1],
    [[1], ['a'], -1],
    [4, [4, 2], -1],
    [[4, 2], 4, 1],
    ['b', ['a'], 1],
  ])('compareSortKeys(%j, %j) has the sign %i', (a, b, sign) => expect(Math.sign(compareSortKeys(a, b))).toBe(sign));

  it('orders versions exactly as compareVersions does', () => {
    const version = fc
      .array(fc.oneof(fc.nat(30), fc.constantFrom('x', '0', '00', '')), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join('.'));
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(Math.sign(compareSortKeys(versionSortKey(a), versionSortKey(b)))).toBe(compareVersions(a, b));
      }),
    );
  });

  it('gives every non-empty value a key and every empty one none', () => {
    const cell = fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null));
    const type = fc.constantFrom<ColumnValueType>(
      'number',
      'string',
      'version',
      'dateTime',
      'boolean',
      'stringAndVersion',
    );
    fc.assert(
      fc.property(type, cell, (columnType, value) => {
        if (isEmptyCell(value)) expect(sortKeyOf(columnType, value)).toBeNull();
      }),
    );
  });
});

describe('sortByColumn properties', () => {
  const cells = fc.array(fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constant(null)), { maxLength: 40 });

  it('answers a permutation, sorted, empties last, stable, inputs untouched', () => {
    fc.assert(
      fc.property(cells, fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), (values, direction) => {
        const items = values.map((value, index) => ({ value, index }));
        const copy = items.map((item) => ({ ...item }));
        const result = sortByColumn(items, 'number', (item) => item.value, direction);
        expect(items).toEqual(copy);
        expect([...result].sort((a, b) => a.index - b.index)).toEqual(items);
        for (let i = 1; i < result.length; i += 1) {
          const [a, b] = [result[i - 1]!, result[i]!];
          const order = compareCells('number', a.value, b.value, direction);
          expect(order).toBeLessThanOrEqual(0);
          if (order === 0) expect(a.index).toBeLessThan(b.index);
        }
      }),
    );
  });
});

describe('SortKeyCodes', () => {
  /** The sign of comparing two cells through their codes, or null when either is empty. */
  const codeOrder = (type: ColumnValueType, a: CellValue, b: CellValue) => {
    const codes = new SortKeyCodes(4);
    if (!codes.append(type, a)) return null;
    const middle = codes.length;
    if (!codes.append(type, b)) return null;
    return Math.sign(compareSortKeyCodes(codes.codes, 0, middle, middle, codes.length)) || 0;
  };
  const digitRun = fc.oneof(
    fc.nat(30).map(String),
    fc.stringMatching(/^0{0,3}[0-9]{1,25}$/),
    fc.constantFrom('0', '00', '19999999999999999999', '100000000000000000000'),
  );
  const text = fc
    .array(
      fc.oneof(
        digitRun,
        fc.constantFrom('a', 'B', ' ', '-', '/', ':', '\u0000', '\u0001', 'é', 'İ'),
        fc.string({ maxLength: 3 }),
      ),
      {
        maxLength: 6,
      },
    )
    .map((parts) => parts.join(''));
  const version = fc
    .array(fc.oneof(fc.nat(1000), fc.constantFrom('x', '0', '00', '', '12345678901234567890')), {
      minLength: 1,
      maxLength: 4,
    })
    .map((parts) => parts.join('.'));
  const namedVersion = fc
    .tuple(fc.constantFrom('Vats', 'vats', 'BREW', 'Vats x', '', 'Row 2', 'Row 10'), version, fc.boolean())
    .map(([name, parts, bare]) => (bare ? name : `${name} v${parts}`));
  const number = fc.oneof(fc.double({ noNaN: true }), fc.integer(), fc.constantFrom(0, -0, 1e21, -1e-300));

  it.each<[ColumnValueType, fc.Arbitrary<CellValue>]>([
    ['string', text],
    ['string', fc.oneof(text, fc.integer(), fc.boolean())],
    ['object', fc.record({ base: fc.option(text, { nil: null }), custom: fc.option(text, { nil: null }) })],
    ['version', version],
    ['stringAndVersion', namedVersion],
    ['number', number],
    ['dateTime', fc.oneof(number, fc.constantFrom('2024-01-02T03:04:05Z', '2023-12-31', 'not a date'))],
    ['boolean', fc.oneof(fc.boolean(), fc.constantFrom('true', 'false'))],
  ])('orders %s cells as compareCells does', (type, cell) => {
    fc.assert(
      fc.property(cell, cell, (a, b) => {
        const order = codeOrder(type, a, b);
        if (sortKeyOf(type, a) === null || sortKeyOf(type, b) === null) expect(order).toBeNull();
        else expect(order).toBe(Math.sign(compareCells(type, a, b, 'asc')) || 0);
      }),
      { numRuns: 500 },
    );
  });

  it.each<[ColumnValueType, CellValue, CellValue, number]>([
    ['string', 'Row 9', 'Row 10', -1],
    ['string', 'row 010', 'Row 10', 0],
    ['string', 'a 9', 'a-', -1],
    ['string', '100000000000000000000', '99999999999999999999', -1],
    ['string', '20000000000000000000000', '300000000000000000000', -1],
    ['version', '1.0', '1', 0],
    ['version', '4.9', '4.10', -1],
    ['stringAndVersion', 'Vats', 'Vats 4.2', -1],
    ['stringAndVersion', 'Vats 4.10', 'vats 4.2', 1],
    ['number', -2, -1, -1],
    ['number', -0, 0, 0],
  ])('%s: %j against %j answers %i', (type, a, b, sign) => expect(codeOrder(type, a, b)).toBe(sign));

  it('leaves empty cells out', () => {
    const codes = new SortKeyCodes();
    expect([codes.append('string', '  '), codes.append('number', null), codes.append('version', '')]).toEqual([
      false,
      false,
      false,
    ]);
    expect(codes.length).toBe(0);
  });

  it('grows its buffer for long keys', () => {
    const codes = new SortKeyCodes(1);
    const long = 'x1'.repeat(5000);
    codes.append('string', long);
    codes.append('string', `${long}y`);
    expect(codes.length).toBeGreaterThan(10_000);
  });
});
