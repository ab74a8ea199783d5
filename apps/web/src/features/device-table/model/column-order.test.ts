import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ColumnValueType } from '@fieldlink/domain/device-columns';
import {
  compareCellKeys,
  compareSortKeyCodes,
  sortByColumn,
  sortKeyOf,
  SortKeyCodes,
  type CellValue,
} from '@fieldlink/domain/device-sort';
import {
  checkedTextOrder,
  ColumnOrderBuild,
  KeySort,
  prefixSort,
  sortRowsByNumber,
  type ColumnOrder,
} from './column-order';
import { fixtureColumns } from './fixtures';
import { decodeDeviceTable } from './table-data';
import { TableIndex } from './table-view';

/** Compares two cells as the sort does: by their keys, empty last. */
const compareCells = (type: ColumnValueType, a: CellValue, b: CellValue, direction: 'asc' | 'desc') =>
  compareCellKeys(sortKeyOf(type, a), sortKeyOf(type, b), direction);

/** Builds an order from cells, all at once or a slice at a time (`more` answering false each time). */
function orderOf(type: ColumnValueType, cells: readonly CellValue[], slices = false): ColumnOrder {
  // eslint-disable-next-line require-yield
  const build = new ColumnOrderBuild(type, function* () {
    return cells;
  });
  if (!slices) return build.run()!;
  let order: ColumnOrder | null = null;
  let calls = 0;
  while (!order) {
    order = build.run(() => false);
    calls += 1;
  }
  expect(calls).toBeGreaterThan(1);
  return order;
}

/** The domain's reference: rows sorted by `sortByColumn` (stable, empties last). */
const reference = (type: ColumnValueType, cells: readonly CellValue[]) =>
  sortByColumn(
    cells.map((_, row) => row),
    type,
    (row) => cells[row],
    'asc',
  );

let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const digits = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

describe('sortRowsByNumber', () => {
  it('sorts like a stable comparison sort, -0 equal to 0', () => {
    const value = fc.oneof(
      fc.double({ noNaN: true }),
      fc.integer({ min: -3, max: 3 }),
      fc.constantFrom(0, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.7e12),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), (values) => {
        const rows = Int32Array.from(values, (_, row) => row);
        const expected = [...rows].sort((a, b) => values[a]! - values[b]! || a - b);
        expect(Array.from(sortRowsByNumber(rows, Float64Array.from(values)))).toEqual(expected);
      }),
    );
  });
});

describe('KeySort and prefixSort', () => {
  const texts = () =>
    Array.from({ length: 4000 }, () =>
      pick([`8961${digits(15)}`, `Tank ${digits(2)}`, `tank ${digits(2)}`, `Brewhouse fermenter ${digits(1)}`, 'x']),
    );
  const keyed = (values: string[]) => {
    const codes = new SortKeyCodes();
    const starts = new Int32Array(values.length);
    const ends = new Int32Array(values.length);
    values.forEach((value, key) => {
      starts[key] = codes.length;
      codes.append('string', value);
      ends[key] = codes.length;
    });
    const compare = (a: number, b: number) =>
      compareSortKeyCodes(codes.codes, starts[a]!, ends[a]!, starts[b]!, ends[b]!);
    return { codes, starts, ends, compare };
  };
  const expectSorted = (ids: Int32Array, equal: Uint8Array, compare: (a: number, b: number) => number) => {
    for (let i = 1; i < ids.length; i += 1) {
      const order = compare(ids[i - 1]!, ids[i]!);
      expect(order).toBeLessThanOrEqual(0);
      expect(equal[i]).toBe(order === 0 ? 1 : 0);
    }
  };

  it('sorts by codes alone, with counting splits of long ranges, a budget at a time', () => {
    const { codes, starts, ends, compare } = keyed(texts());
    const sort = new KeySort(
      Int32Array.from({ length: starts.length }, (_, key) => key),
      codes.codes,
      starts,
      ends,
    );
    let calls = 1;
    while (!sort.run(500)) calls += 1;
    expect(calls).toBeGreaterThan(1);
    expectSorted(sort.ids, sort.equalToPrevious, compare);
  });

  it('sorts by packed prefixes, then the ties by codes', () => {
    const { codes, starts, ends, compare } = keyed(texts());
    const packed = prefixSort(codes.codes, codes.length, starts, ends, starts.length)!;
    expect(packed.ranges.length).toBeGreaterThan(0);
    const sort = new KeySort(packed.ids, codes.codes, starts, ends, packed.ranges, packed.equalToPrevious);
    sort.run();
    expectSorted(sort.ids, sort.equalToPrevious, compare);
  });

  it('leaves characters past U+00FF to the sort by codes', () => {
    const { codes, starts, ends } = keyed(['東京', 'a']);
    expect(prefixSort(codes.codes, codes.length, starts, ends, 2)).toBeNull();
  });
});

describe('ColumnOrderBuild', () => {
  // Enough rows for every path: counting splits of long ranges, packed prefixes with ties sorted on.
  const ROWS = 3000;
  const fleets: [string, ColumnValueType, () => CellValue][] = [
    ['ICCIDs (every value distinct, a long shared prefix)', 'string', () => `8961${digits(15)}`],
    ['UUIDs', 'string', () => crypto.randomUUID()],
    [
      'digit runs of up to 19 digits, with leading zeros, some blank or empty',
      'string',
      () =>
        pick([
          `86695404${digits(7)}`,
          digits(1 + Math.floor(random() * 19)),
          `000${digits(Math.floor(random() * 17))}`,
          `${'0'.repeat(12)}${digits(19)}`,
          '9999999999999999999',
          '0',
          '',
          '   ',
          null,
        ]),
    ],
    [
      'digit runs, some of 20 digits or more (ordered by their digits)',
      'string',
      () => pick([digits(19), digits(20), digits(21), `0${digits(20)}`, `1${'0'.repeat(19)}`, digits(2), ' 12', null]),
    ],
    [
      'names sharing long prefixes, in either case, some empty',
      'string',
      () =>
        pick([
          `Brewhouse Fermenter Tank ${Math.floor(random() * 40)}`,
          `BREWHOUSE fermenter tank ${Math.floor(random() * 40)}`,
          `Cellar ${digits(2)}-${digits(1)}`,
          '',
          null,
          `  Row 00${digits(1)} `,
          `Serial ${digits(22)}`,
        ]),
    ],
    ['text beyond Latin-1', 'string', () => pick(['Ωmega 2', 'ωmega 10', 'Zürich 3', '東京 1', 'tokyo', null])],
    ['versions', 'version', () => pick(['4.10.0', '4.10', '4.9.1', '1', 'x', '', null, `4.${digits(1)}.${digits(1)}`])],
    [
      'named versions',
      'stringAndVersion',
      () => pick(['Vats 4.2', 'Vats 4.10', 'vats', 'BREW 3.1', `Row ${digits(1)} v1.${digits(1)}`, null]),
    ],
    ['objects', 'object', () => ({ base: pick(['Base 2', 'base 10', null]), custom: pick(['x', null, 'Custom 1']) })],
    ['dates', 'dateTime', () => pick([null, 1.7e12 + Math.floor(random() * 1000), 1.7e12])],
    ['numbers', 'number', () => pick([null, -1, 0, -0, 2.5, Math.floor(random() * 100) - 50])],
    ['booleans', 'boolean', () => pick([true, false, null])],
  ];

  it.each(fleets)('orders %s exactly as the domain’s sortByColumn', (_label, type, cell) => {
    const cells = Array.from({ length: ROWS }, cell);
    const expected = reference(type, cells);
    const order = orderOf(type, cells);
    expect(Array.from(order.rows)).toEqual(expected);
    expect(order.filled).toBe(cells.filter((value) => sortKeyOf(type, value) !== null).length);
    expect(orderOf(type, cells, true).rows).toEqual(order.rows);
  });

  it.each(fleets)('marks the runs of equal %s', (_label, type, cell) => {
    const cells = Array.from({ length: 200 }, cell);
    const order = orderOf(type, cells);
    const rows = Array.from(order.rows.subarray(0, order.filled));
    const expected = rows.map((row, i) =>
      i === 0 || compareCells(type, cells[rows[i - 1]!], cells[row], 'asc') !== 0 ? 1 : 0,
    );
    expect(Array.from(order.runStarts)).toEqual(expected);
  });
});

describe('TableIndex.prepareOrder', () => {
  it('builds in slices and then sorts as a build on demand does', () => {
    const devices = Array.from({ length: 2000 }, () => ({ iccid: `8961${digits(15)}`, name: pick(['a', 'B', null]) }));
    const data = decodeDeviceTable(fixtureColumns(devices));
    const sliced = new TableIndex(data);
    let calls = 0;
    while (!sliced.prepareOrder('iccid', false, () => false)) calls += 1;
    expect(calls).toBeGreaterThan(1);
    expect(sliced.hasOrder('iccid')).toBe(true);
    const onDemand = new TableIndex(data);
    for (const direction of ['asc', 'desc'] as const) {
      expect(sliced.order({ key: 'iccid', direction }, { distanceFrom: null })).toEqual(
        onDemand.order({ key: 'iccid', direction }, { distanceFrom: null }),
      );
    }
  });

  it('finishes a build begun in idle time when a sort needs it', () => {
    const devices = Array.from({ length: 2000 }, (_, row) => ({ name: `Tank ${2000 - row}` }));
    const table = new TableIndex(decodeDeviceTable(fixtureColumns(devices)));
    expect(table.prepareOrder('name', true, () => false)).toBe(false);
    const rows = table.order({ key: 'name', direction: 'asc' }, { distanceFrom: null });
    expect(Array.from(rows.subarray(0, 3))).toEqual([1999, 1998, 1997]);
    expect(table.hasOrder('name')).toBe(true);
  });
});

describe('an order given ready (the server’s order by name)', () => {
  /** The given order after its check, run to its end: the order, or null when refused. */
  const checked = (cells: readonly CellValue[], given: Int32Array): ColumnOrder | null => {
    const steps = checkedTextOrder('string', cells, given);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  };
  // Names with case, digit runs, blanks, repeats and empties: ties and empty rows in every table.
  const name = fc.option(
    fc.oneof(
      fc.constantFrom('Tank 2', 'tank 2', 'Tank 10', 'tank 010', 'Boiler', ' ', '', '007', '7', 'Zapfanlage Süd'),
      fc.string({ unit: 'binary', maxLength: 6 }),
    ),
    { nil: null },
  );
  const tables = fc.array(name, { maxLength: 50 });

  it('takes the order the console builds, and refuses any other permutation', () => {
    fc.assert(
      fc.property(
        tables.chain((cells) =>
          fc
            .shuffledSubarray(
              cells.map((_, row) => row),
              { minLength: cells.length, maxLength: cells.length },
            )
            .map((shuffled) => ({ cells, shuffled: Int32Array.from(shuffled) })),
        ),
        ({ cells, shuffled }) => {
          const own = orderOf('string', cells);
          expect(checked(cells, Int32Array.from(own.rows))).toEqual(own);
          // Any other order is refused; the same one (a shuffle can give it) is taken.
          const other = checked(cells, shuffled);
          if (other) expect(other).toEqual(own);
          else expect([...shuffled]).not.toEqual([...own.rows]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a row twice, a row out of range and an order of another length', () => {
    const cells = ['b', 'a', null];
    expect(checked(cells, Int32Array.from([1, 0, 2]))).not.toBeNull();
    expect(checked(cells, Int32Array.from([1, 1, 2]))).toBeNull();
    expect(checked(cells, Int32Array.from([1, 0, 3]))).toBeNull();
    expect(checked(cells, Int32Array.from([1, 0]))).toBeNull();
  });

  it.each<[string, number[] | undefined]>([
    ['the right one', undefined],
    ['none', []],
    ['a wrong one', [0, 1, 2, 3, 4, 5]],
    ['one with ties out of row order', [3, 5, 4, 1, 0, 2]],
  ])('gives the console’s own rows by name with %s from the server', (_, wrong) => {
    const names = ['Tank 10', 'tank 9', null, 'Boiler', 'Tank 9', 'Chiller'];
    const devices = names.map((value) => ({ name: value }));
    const own = new TableIndex(decodeDeviceTable(fixtureColumns(devices)));
    const expected = [3, 5, 1, 4, 0, 2];
    expect([...own.order({ key: 'name', direction: 'asc' }, { distanceFrom: null })]).toEqual(expected);
    const data = decodeDeviceTable(fixtureColumns(devices));
    if (wrong === undefined) data.nameOrder = Int32Array.from(expected);
    else data.nameOrder = wrong.length === 0 ? null : Int32Array.from(wrong);
    const index = new TableIndex(data);
    for (const direction of ['asc', 'desc'] as const) {
      expect(index.order({ key: 'name', direction }, { distanceFrom: null })).toEqual(
        own.order({ key: 'name', direction }, { distanceFrom: null }),
      );
    }
  });
});
