import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileDeviceFilters,
  isActiveFilter,
  parseStoredFilters,
  passingRows,
  pathUnderGroup,
  type DeviceFilter,
  type FilterSource,
} from './device-filter';
import type { CellValue } from './device-sort';
import { distanceKm, type GeoPoint } from './geo';

/** What the filters read of one test device. */
interface FilterSubject {
  value(attribute: string): CellValue;
  groupPath: string;
  inNewGroup: boolean;
  alarmBits: number;
  activeAlarms?: string | null;
  location: GeoPoint | null;
}

/** A filter source over a list of items, each read through `read` once (the table reads columns). */
function listFilterSource<T>(items: readonly T[], read: (item: T) => FilterSubject): FilterSource {
  const subjects = items.map(read);
  return {
    column: (attribute) => (row) => subjects[row]?.value(attribute),
    groupPath: (row) => subjects[row]?.groupPath ?? '',
    inNewGroup: (row) => subjects[row]?.inNewGroup ?? false,
    alarmBits: (row) => subjects[row]?.alarmBits ?? 0,
    activeAlarms: (row) => subjects[row]?.activeAlarms ?? null,
    location: (row) => subjects[row]?.location ?? null,
  };
}

/** The rows that pass, in the order given, cut at the LIMIT. */
function filterRows(filters: readonly DeviceFilter[], source: FilterSource, order: Iterable<number>): number[] {
  return Array.from(passingRows(compileDeviceFilters(filters, source), Array.from(order)));
}

interface TestDevice {
  name: string;
  fw: string | null;
  signal: number | null;
  isConnected: boolean;
  muted: boolean | null;
  lastConnection: number | null;
  custom: string | null;
  path: string;
  inNewGroup: boolean;
  sp: number;
  location: { lat: number; lng: number } | null;
}

const device = (name: string, overrides: Partial<TestDevice> = {}): TestDevice => ({
  name,
  fw: '4.10.2',
  signal: -70,
  isConnected: true,
  muted: false,
  lastConnection: Date.UTC(2026, 10, 1),
  custom: 'Vats 4.2',
  path: './root/cellar',
  inNewGroup: false,
  sp: 0,
  location: { lat: 32.7767, lng: -96.797 },
  ...overrides,
});

/** A small fleet: Dallas, Fort Worth (50 km west), Denton (57 km north-west), one with no location. */
const FLEET: TestDevice[] = [
  device('Fermenter FV1', { fw: '4.9.0', signal: -85 }),
  device('Fermenter FV2', { fw: '4.10.0', signal: -60, sp: 0b1100_0000 }),
  device('Shelf A1', {
    fw: '4.12.1',
    signal: null,
    isConnected: false,
    path: './root/stores/main',
    location: { lat: 32.7555, lng: -97.3308 },
    custom: 'Unfieldlinkd',
  }),
  device('sprayer row 1', {
    fw: null,
    signal: -101,
    muted: true,
    path: './root/new1',
    inNewGroup: true,
    sp: 0b100_0000,
    location: { lat: 33.2148, lng: -97.1331 },
    custom: 'Mosnix 1.6',
  }),
  device('Pump house', {
    fw: '10.0',
    signal: -50,
    muted: null,
    lastConnection: null,
    path: './root/stores/airport',
    location: null,
    custom: null,
  }),
];

const subject = (item: TestDevice): FilterSubject => ({
  value: (attribute) => (item as unknown as Record<string, CellValue>)[attribute],
  groupPath: item.path,
  inNewGroup: item.inNewGroup,
  alarmBits: item.sp,
  location: item.location,
});

/** The items that pass the filters, in their order, cut at the LIMIT. */
function filterDevices<T>(
  items: readonly T[],
  filters: readonly DeviceFilter[],
  read: (item: T) => FilterSubject,
): T[] {
  return filterRows(filters, listFilterSource(items, read), items.keys()).map((row) => items[row]!);
}

const names = (filters: DeviceFilter[], fleet = FLEET) => filterDevices(fleet, filters, subject).map((d) => d.name);
const attribute = (
  attributeName: string,
  operator: string,
  value: string,
  attributeType?: DeviceFilter['attributeType'],
) =>
  ({
    type: 'ATTRIBUTE',
    attribute: attributeName,
    operator,
    value,
    ...(attributeType && { attributeType }),
  }) as DeviceFilter;

const ALL = FLEET.map((d) => d.name);

describe('ATTRIBUTE filters on text (case-insensitive)', () => {
  it.each<[string, DeviceFilter, string[]]>([
    ['= matches whole text', attribute('name', '=', 'fermenter fv1'), ['Fermenter FV1']],
    ['!= keeps the rest', attribute('name', '!=', 'FERMENTER FV1'), ALL.filter((n) => n !== 'Fermenter FV1')],
    ['Contains', attribute('name', 'Contains', 'ROW'), ['sprayer row 1']],
    ['Not Contains', attribute('name', 'Not Contains', 'fermenter'), ['Shelf A1', 'sprayer row 1', 'Pump house']],
    ['Begins With', attribute('name', 'Begins With', 'ferm'), ['Fermenter FV1', 'Fermenter FV2']],
    ['Begins With is not Contains', attribute('name', 'Begins With', 'house'), []],
    ['trims the value', attribute('name', '=', '  pump house '), ['Pump house']],
    ['an empty cell is not equal', attribute('custom', '=', 'vats 4.2'), ['Fermenter FV1', 'Fermenter FV2']],
    ['an empty cell passes !=', attribute('custom', '!=', 'vats 4.2'), ['Shelf A1', 'sprayer row 1', 'Pump house']],
    [
      'an empty cell passes Not Contains',
      attribute('custom', 'Not Contains', 'vats'),
      ['Shelf A1', 'sprayer row 1', 'Pump house'],
    ],
  ])('%s', (_label, filter, expected) => expect(names([filter])).toEqual(expected));
});

describe('ATTRIBUTE filters on numbers (parsed)', () => {
  it.each<[string, string, string[]]>([
    ['=', '-70', []],
    ['=', '-85', ['Fermenter FV1']],
    ['!=', '-85', ['Fermenter FV2', 'Shelf A1', 'sprayer row 1', 'Pump house']],
    ['<', '-85', ['sprayer row 1']],
    ['<=', '-85', ['Fermenter FV1', 'sprayer row 1']],
    ['>', '-60', ['Pump house']],
    ['>=', '-60.0', ['Fermenter FV2', 'Pump house']],
    ['>', '-1e3', ['Fermenter FV1', 'Fermenter FV2', 'sprayer row 1', 'Pump house']],
  ])('signal %s %s', (operator, value, expected) =>
    expect(names([attribute('signal', operator, value)])).toEqual(expected),
  );

  it('compares as numbers, not text ("-9" > "-85" but -9 > -85 too; "100" < "9" as text)', () => {
    const fleet = [device('a', { signal: 100 }), device('b', { signal: 9 })];
    expect(names([attribute('signal', '>', '10')], fleet)).toEqual(['a']);
  });
});

describe('ATTRIBUTE filters on versions (dot-separated integers)', () => {
  it.each<[string, string, string[]]>([
    ['>', '4.9', ['Fermenter FV2', 'Shelf A1', 'Pump house']],
    ['<', '4.10', ['Fermenter FV1']],
    ['=', '4.10', ['Fermenter FV2']],
    ['=', '4.10.0.0', ['Fermenter FV2']],
    ['>=', '4.12.1', ['Shelf A1', 'Pump house']],
    ['<=', '4.9.0', ['Fermenter FV1']],
    ['!=', '4.9', ['Fermenter FV2', 'Shelf A1', 'sprayer row 1', 'Pump house']],
  ])('fw %s %s', (operator, value, expected) =>
    expect(names([attribute('fw', operator, value, 'version')])).toEqual(expected),
  );

  it('takes the type from the column when the filter does not say', () => {
    expect(names([attribute('fw', '>', '4.9')])).toEqual(['Fermenter FV2', 'Shelf A1', 'Pump house']);
  });
});

describe('ATTRIBUTE filters on booleans (equality)', () => {
  it.each<[string, string, string, string[]]>([
    ['isConnected', '=', 'true', ['Fermenter FV1', 'Fermenter FV2', 'sprayer row 1', 'Pump house']],
    ['isConnected', '=', 'false', ['Shelf A1']],
    ['isConnected', '!=', 'true', ['Shelf A1']],
    ['isConnected', '=', 'Offline', ['Shelf A1']],
    ['muted', '=', 'true', ['sprayer row 1']],
    ['muted', '=', 'false', ['Fermenter FV1', 'Fermenter FV2', 'Shelf A1', 'Pump house']],
  ])('%s %s %s', (name, operator, value, expected) =>
    expect(names([attribute(name, operator, value)])).toEqual(expected),
  );
});

describe('ATTRIBUTE filters on date-times (as instants)', () => {
  it.each<[string, string, string[]]>([
    ['<', '2026-11-02', ['Fermenter FV1', 'Fermenter FV2', 'Shelf A1', 'sprayer row 1']],
    ['>', '2026-11-01T00:00:00Z', []],
    ['=', String(Date.UTC(2026, 10, 1)), ['Fermenter FV1', 'Fermenter FV2', 'Shelf A1', 'sprayer row 1']],
    ['!=', '2026-11-01T00:00:00Z', ['Pump house']],
  ])('lastConnection %s %s', (operator, value, expected) =>
    expect(names([attribute('lastConnection', operator, value)])).toEqual(expected),
  );
});

describe('GROUP filters', () => {
  const group = (operator: string, value = ''): DeviceFilter => ({ type: 'GROUP', operator, value });
  it.each<[string, DeviceFilter[], string[]]>([
    ['INCLUDE a group and its subgroups', [group('INCLUDE', 'stores')], ['Shelf A1', 'Pump house']],
    ['INCLUDE by path', [group('INCLUDE', './root/stores/main')], ['Shelf A1']],
    [
      'INCLUDE several: any of them',
      [group('INCLUDE', 'main'), group('INCLUDE', 'cellar')],
      ['Fermenter FV1', 'Fermenter FV2', 'Shelf A1'],
    ],
    ['EXCLUDE', [group('EXCLUDE', 'stores')], ['Fermenter FV1', 'Fermenter FV2', 'sprayer row 1']],
    ['INCLUDE and EXCLUDE', [group('INCLUDE', 'stores'), group('EXCLUDE', 'airport')], ['Shelf A1']],
    ['ONLY_NEW_GROUPS', [group('ONLY_NEW_GROUPS')], ['sprayer row 1']],
    ['EXCLUDE_ALL_NEW_GROUPS', [group('EXCLUDE_ALL_NEW_GROUPS')], ALL.filter((n) => n !== 'sprayer row 1')],
    ['an id matches whole segments only', [group('INCLUDE', 'store')], []],
  ])('%s', (_label, filters, expected) => expect(names(filters)).toEqual(expected));

  it.each([
    ['./a/b/c', 'b', true],
    ['./a/b/c', './a/b', true],
    ['./a/b10', 'b1', false],
    ['./a/b10', './a/b1', false],
  ])('pathUnderGroup(%j, %j) is %s', (path, groupName, expected) =>
    expect(pathUnderGroup(path, groupName)).toBe(expected),
  );
});

describe('ALARM filter (the selected alarm of status.sp)', () => {
  it.each<[string, string[]]>([
    ['ANY', ['Fermenter FV2', 'sprayer row 1']],
    ['NONE', ['Fermenter FV1', 'Shelf A1', 'Pump house']],
    ['6', ['Fermenter FV2', 'sprayer row 1']],
    ['7', ['Fermenter FV2']],
    ['3', []],
    ['nonsense', []],
  ])('selectedAlarm %s', (selectedAlarm, expected) =>
    expect(names([{ type: 'ALARM', selectedAlarm }])).toEqual(expected),
  );
});

describe('LIMIT filter', () => {
  it.each<[string, string[]]>([
    ['2', ['Fermenter FV1', 'Fermenter FV2']],
    ['0', []],
    ['99', ALL],
    ['2.9', ['Fermenter FV1', 'Fermenter FV2']],
  ])('cuts beyond %s', (value, expected) => expect(names([{ type: 'LIMIT', value }])).toEqual(expected));

  it('counts after the other filters, and the smallest limit wins', () => {
    expect(
      names([{ type: 'LIMIT', value: '3' }, attribute('name', 'Contains', 'e'), { type: 'LIMIT', value: '2' }]),
    ).toEqual(['Fermenter FV1', 'Fermenter FV2']);
  });

  it('applies to the order given (the sorted table)', () => {
    const source = listFilterSource(FLEET, subject);
    expect(filterRows([{ type: 'LIMIT', value: 2 }], source, [4, 3, 2, 1, 0])).toEqual([4, 3]);
  });
});

describe('GEO_DISTANCE filter', () => {
  const geo = (value: string, operator = 'kilometers'): DeviceFilter => ({
    type: 'GEO_DISTANCE',
    operator,
    value,
    latitude: '32.7767',
    longitude: '-96.797',
  });
  it.each<[string, DeviceFilter, string[]]>([
    [
      'removes devices without a location',
      geo('100000'),
      ['Fermenter FV1', 'Fermenter FV2', 'Shelf A1', 'sprayer row 1'],
    ],
    ['keeps devices within the distance', geo('1'), ['Fermenter FV1', 'Fermenter FV2']],
    ['in km: Fort Worth is 49.967 km away', geo('50'), ['Fermenter FV1', 'Fermenter FV2', 'Shelf A1']],
    ['in miles: Fort Worth is 31.05 miles away', geo('31', 'miles'), ['Fermenter FV1', 'Fermenter FV2']],
    ['in miles, a little further', geo('31.1', 'miles'), ['Fermenter FV1', 'Fermenter FV2', 'Shelf A1']],
  ])('%s', (_label, filter, expected) => expect(names([filter])).toEqual(expected));

  it('exposes its centre and unit for the distance column', () => {
    const compiled = compileDeviceFilters([geo('10', 'miles')], listFilterSource(FLEET, subject));
    expect(compiled.distanceFrom).toEqual({ centre: { lat: 32.7767, lng: -96.797 }, unit: 'miles' });
    expect(distanceKm({ lat: 32.7767, lng: -96.797 }, { lat: 32.7555, lng: -97.3308 }) * 0.621371).toBeCloseTo(
      31.049,
      2,
    );
  });
});

describe('ignored filters (§5: empty operator or blank value)', () => {
  it.each<[string, DeviceFilter]>([
    ['empty operator', attribute('name', '', 'x')],
    ['blank value', attribute('name', '=', '   ')],
    ['no value', { type: 'ATTRIBUTE', attribute: 'name', operator: '=' }],
    ['no attribute', { type: 'ATTRIBUTE', operator: '=', value: 'x' }],
    ['unknown attribute without a type', attribute('nonsense', '=', 'x')],
    ['an operator the type does not have', attribute('signal', 'Contains', '5')],
    ['a number that is not one', attribute('signal', '>', 'abc')],
    ['a boolean that is not one', attribute('isConnected', '=', 'maybe')],
    ['a group filter without a mode', { type: 'GROUP', operator: '', value: 'stores' }],
    ['INCLUDE without a group', { type: 'GROUP', operator: 'INCLUDE', value: ' ' }],
    ['ALARM without a choice', { type: 'ALARM', selectedAlarm: '' }],
    ['LIMIT without a count', { type: 'LIMIT', value: '' }],
    ['a negative LIMIT', { type: 'LIMIT', value: '-1' }],
    ['GEO without a unit', { type: 'GEO_DISTANCE', operator: '', value: '5', latitude: 1, longitude: 2 }],
    ['GEO without a centre', { type: 'GEO_DISTANCE', operator: 'miles', value: '5', latitude: '', longitude: 2 }],
    ['GEO with a blank distance', { type: 'GEO_DISTANCE', operator: 'miles', value: '', latitude: 1, longitude: 2 }],
    ['GEO off the globe', { type: 'GEO_DISTANCE', operator: 'miles', value: '5', latitude: 91, longitude: 2 }],
  ])('%s', (_label, filter) => {
    expect(isActiveFilter(filter)).toBe(false);
    expect(names([filter])).toEqual(ALL);
  });

  it('an attribute filter on a column this table lacks compares an empty value', () => {
    expect(names([attribute('iccid', '!=', 'x', 'string')])).toEqual(ALL);
    expect(names([attribute('iccid', '=', 'x', 'string')])).toEqual([]);
  });
});

describe('several filters combine', () => {
  it('with AND across filters', () => {
    expect(
      names([
        attribute('name', 'Contains', 'fermenter'),
        attribute('fw', '>=', '4.10'),
        { type: 'ALARM', selectedAlarm: 'ANY' },
      ]),
    ).toEqual(['Fermenter FV2']);
  });
});

describe('filter properties', () => {
  const fleet = fc.array(
    fc.record({
      name: fc.string({ maxLength: 6 }),
      signal: fc.option(fc.integer({ min: -120, max: 0 }), { nil: null }),
      fw: fc.option(
        fc.array(fc.nat(12), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.')),
        { nil: null },
      ),
      sp: fc.nat(255),
    }),
    { maxLength: 30 },
  );
  const devices = (records: { name: string; signal: number | null; fw: string | null; sp: number }[]) =>
    records.map((record, index) => device(`${index}:${record.name}`, { ...record, name: `${index}:${record.name}` }));

  it('answers a subsequence of the input, in its order', () => {
    const filter = fc.oneof(
      fc.record({
        type: fc.constant('ATTRIBUTE' as const),
        attribute: fc.constant('name'),
        operator: fc.constantFrom('=', '!=', 'Contains', 'Not Contains', 'Begins With'),
        value: fc.string({ maxLength: 3 }),
      }),
      fc.record({
        type: fc.constant('ATTRIBUTE' as const),
        attribute: fc.constant('signal'),
        operator: fc.constantFrom('=', '!=', '<', '<=', '>', '>='),
        value: fc.integer({ min: -120, max: 0 }).map(String),
      }),
      fc.record({ type: fc.constant('LIMIT' as const), value: fc.nat(40).map(String) }),
      fc.record({ type: fc.constant('ALARM' as const), selectedAlarm: fc.constantFrom('ANY', 'NONE', '0', '7') }),
    );
    fc.assert(
      fc.property(fleet, fc.array(filter, { maxLength: 4 }), (records, filters) => {
        const input = devices(records);
        const output = filterDevices(input, filters, subject);
        let cursor = 0;
        for (const kept of output) {
          cursor = input.indexOf(kept, cursor);
          expect(cursor).toBeGreaterThanOrEqual(0);
          cursor += 1;
        }
      }),
    );
  });

  it('splits the fleet: an operator and its opposite keep complementary devices', () => {
    const pairs: [string, string][] = [
      ['=', '!='],
      ['Contains', 'Not Contains'],
    ];
    fc.assert(
      fc.property(
        fleet,
        fc.string({ minLength: 1, maxLength: 2 }),
        fc.constantFrom(...pairs),
        (records, value, [yes, no]) => {
          fc.pre(value.trim() !== '');
          const input = devices(records);
          const kept = filterDevices(input, [attribute('name', yes, value)], subject);
          const rest = filterDevices(input, [attribute('name', no, value)], subject);
          expect(kept.length + rest.length).toBe(input.length);
          expect(kept.filter((d) => rest.includes(d))).toEqual([]);
        },
      ),
    );
  });

  it('number and version orderings agree: < and >= split the fleet', () => {
    fc.assert(
      fc.property(fleet, fc.nat(12), fc.constantFrom('signal', 'fw'), (records, pivot, name) => {
        const input = devices(records);
        const value = name === 'signal' ? String(-pivot * 10) : `4.${pivot}`;
        const below = filterDevices(input, [attribute(name, '<', value)], subject);
        const atOrAbove = filterDevices(input, [attribute(name, '>=', value)], subject);
        const empty = input.filter((d) => (name === 'signal' ? d.signal === null : d.fw === null));
        expect(below.length + atOrAbove.length + empty.length).toBe(input.length);
      }),
    );
  });

  it('ignores inactive filters entirely', () => {
    fc.assert(
      fc.property(fleet, fc.constantFrom('', '  '), (records, blank) => {
        const input = devices(records);
        expect(filterDevices(input, [attribute('name', '=', blank), { type: 'LIMIT', value: blank }], subject)).toEqual(
          input,
        );
      }),
    );
  });

  it('LIMIT n keeps min(n, matches) devices', () => {
    fc.assert(
      fc.property(fleet, fc.nat(40), (records, count) => {
        const input = devices(records);
        expect(filterDevices(input, [{ type: 'LIMIT', value: count }], subject)).toEqual(input.slice(0, count));
      }),
    );
  });
});

describe('parseStoredFilters', () => {
  it.each<[string, unknown, DeviceFilter[]]>([
    ['a list of filters', [{ type: 'LIMIT', value: '5' }], [{ type: 'LIMIT', value: '5' }]],
    ['one filter object', { type: 'ALARM', selectedAlarm: 'ANY' }, [{ type: 'ALARM', selectedAlarm: 'ANY' }]],
    ['not JSON-ish', 'nonsense', []],
    ['null', null, []],
    [
      'unknown types dropped',
      [
        { type: 'SCRIPT', value: 'x' },
        { type: 'LIMIT', value: 1 },
      ],
      [{ type: 'LIMIT', value: 1 }],
    ],
    [
      'fields of the wrong kind dropped',
      [{ type: 'ATTRIBUTE', attribute: 5, operator: '=', value: {} }],
      [{ type: 'ATTRIBUTE', operator: '=' }],
    ],
    ['an unknown attribute type dropped', [{ type: 'ATTRIBUTE', attributeType: 'regex' }], [{ type: 'ATTRIBUTE' }]],
    [
      'every field kept',
      [{ type: 'GEO_DISTANCE', operator: 'miles', value: '5', latitude: 1.5, longitude: '2', extra: 'x' }],
      [{ type: 'GEO_DISTANCE', operator: 'miles', value: '5', latitude: 1.5, longitude: '2' }],
    ],
  ])('%s', (_label, stored, expected) => expect(parseStoredFilters(stored)).toEqual(expected));
});
