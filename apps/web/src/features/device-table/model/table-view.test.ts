import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceFilter } from '@fieldlink/domain/device-filter';
import { sortByColumn } from '@fieldlink/domain/device-sort';
import { COLUMN_PRESENTATIONS } from './columns';
import { fixtureColumns, type FixtureDevice } from './fixtures';
import { decodeDeviceTable } from './table-data';
import { TableIndex, type TableSort } from './table-view';
import { SPEC_CLOCK_FORMAT, type Clock } from '@fieldlink/domain/date-format';

const UTC_CLOCK: Clock = { timeZone: 'UTC', ...SPEC_CLOCK_FORMAT };

const FLEET: FixtureDevice[] = [
  { name: 'Tank 10', fw: '4.10.0', signal: -70, group: 3, isConnected: 1, lat: 32.7767, lng: -96.797, statusSp: 64 },
  { name: 'tank 9', fw: '4.9.1', signal: null, group: 2, isConnected: 0, lat: 32.7555, lng: -97.3308 },
  { name: 'Boiler', fw: null, signal: -90, group: 1, isConnected: 1 },
  { name: 'Chiller', fw: '4.10', signal: -50, group: 0, isConnected: 1, lat: 33.2148, lng: -97.1331, statusSp: 0 },
  { name: 'Tank 2', fw: '4.10.0', signal: -70, group: 3, isConnected: 1, lat: 32.9, lng: -97.04 },
];

const index = () => new TableIndex(decodeDeviceTable(fixtureColumns(FLEET)));
const names = (table: TableIndex, filters: DeviceFilter[], sort: TableSort | null) =>
  Array.from(table.view(filters, sort).rows, (row) => table.data.text.name[row]);

describe('TableIndex.view: sorting', () => {
  it.each<[string, TableSort | null, string[]]>([
    ['keeps the server’s order without a sort', null, ['Tank 10', 'tank 9', 'Boiler', 'Chiller', 'Tank 2']],
    [
      'sorts names case-insensitively, digits by value',
      { key: 'name', direction: 'asc' },
      ['Boiler', 'Chiller', 'Tank 2', 'tank 9', 'Tank 10'],
    ],
    ['reverses them', { key: 'name', direction: 'desc' }, ['Tank 10', 'tank 9', 'Tank 2', 'Chiller', 'Boiler']],
    // 4.10 equals 4.10.0; ties keep the server's order in both directions; empty firmware last.
    [
      'sorts versions by dotted parts',
      { key: 'fw', direction: 'asc' },
      ['tank 9', 'Tank 10', 'Chiller', 'Tank 2', 'Boiler'],
    ],
    [
      'and descending, empties still last',
      { key: 'fw', direction: 'desc' },
      ['Tank 10', 'Chiller', 'Tank 2', 'tank 9', 'Boiler'],
    ],
    [
      'sorts numbers, empties last',
      { key: 'signal', direction: 'desc' },
      ['Chiller', 'Tank 10', 'Tank 2', 'Boiler', 'tank 9'],
    ],
    ['sorts booleans', { key: 'isConnected', direction: 'asc' }, ['tank 9', 'Tank 10', 'Boiler', 'Chiller', 'Tank 2']],
    [
      'sorts group paths by their names',
      { key: 'groupPath', direction: 'asc' },
      ['Chiller', 'tank 9', 'Tank 10', 'Tank 2', 'Boiler'],
    ],
  ])('%s', (_label, sort, expected) => expect(names(index(), [], sort)).toEqual(expected));

  it('orders exactly as the domain’s sortByColumn, for every column type', () => {
    const device = fc.record({
      name: fc.option(fc.constantFrom('a', 'B', 'a2', 'a10', 'Zed', ''), { nil: null }),
      fw: fc.option(fc.constantFrom('1', '1.0', '1.2', '1.10', '2.0.1', 'x'), { nil: null }),
      custom: fc.option(fc.constantFrom('Vats 4.2', 'Vats 4.10', 'BREW 3.1', 'Vats'), { nil: null }),
      signal: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
      lastConnection: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
      isConnected: fc.constantFrom(0, 1),
    });
    const keys = ['name', 'fw', 'custom', 'signal', 'lastConnection', 'isConnected', 'macros'];
    fc.assert(
      fc.property(
        fc.array(device, { maxLength: 25 }),
        fc.constantFrom(...keys),
        fc.constantFrom('asc' as const, 'desc' as const),
        (devices, key, direction) => {
          const table = new TableIndex(decodeDeviceTable(fixtureColumns(devices)));
          const column = COLUMN_PRESENTATIONS.get(key)!;
          const cells = table.cells(key, { distanceFrom: null });
          const rows = devices.map((_, row) => row);
          const expected = sortByColumn(rows, column.type, (row) => cells[row], direction);
          expect(Array.from(table.order({ key, direction }, { distanceFrom: null }))).toEqual(expected);
        },
      ),
    );
  });
});

describe('TableIndex.view: filters', () => {
  it('filters, then sorts, then cuts at the limit', () => {
    const filters: DeviceFilter[] = [
      { type: 'ATTRIBUTE', attribute: 'name', operator: 'Begins With', value: 'TANK' },
      { type: 'LIMIT', value: '2' },
    ];
    expect(names(index(), filters, { key: 'name', direction: 'desc' })).toEqual(['Tank 10', 'tank 9']);
  });

  it('reads groups, new groups and alarms from the table', () => {
    expect(names(index(), [{ type: 'GROUP', operator: 'INCLUDE', value: 'cellar' }], null)).toEqual([
      'Tank 10',
      'tank 9',
      'Tank 2',
    ]);
    expect(names(index(), [{ type: 'GROUP', operator: 'ONLY_NEW_GROUPS' }], null)).toEqual(['Boiler']);
    expect(names(index(), [{ type: 'ALARM', selectedAlarm: '6' }], null)).toEqual(['Tank 10']);
  });

  it('filters by real channel alarms and shows them in the alarm column', () => {
    const table = new TableIndex(
      decodeDeviceTable(
        fixtureColumns([
          { name: 'Pump', activeAlarms: 'c1:HIGH:CRITICAL' },
          { name: 'Tank', statusSp: 64 },
          { name: 'Quiet' },
        ]),
      ),
    );
    expect(names(table, [{ type: 'ALARM', selectedAlarm: 'ANY' }], null)).toEqual(['Pump', 'Tank']);
    expect(names(table, [{ type: 'ALARM', selectedAlarm: 'CRITICAL' }], null)).toEqual(['Pump']);
    expect(names(table, [{ type: 'ALARM', selectedAlarm: 'NONE' }], null)).toEqual(['Quiet']);
    expect(COLUMN_PRESENTATIONS.get('alarm')!.read(table.data, 0, { distanceFrom: null })).toBe('Ch_1 high');
  });

  it('measures the distance column from the geo filter’s centre, in its unit', () => {
    const table = index();
    const geo: DeviceFilter = {
      type: 'GEO_DISTANCE',
      operator: 'miles',
      value: '40',
      latitude: 32.7767,
      longitude: -96.797,
    };
    const view = table.view([geo], { key: 'distance', direction: 'asc' });
    expect(Array.from(view.rows, (row) => table.data.text.name[row])).toEqual([
      'Tank 10',
      'Tank 2',
      'tank 9',
      'Chiller',
    ]);
    const distances = Array.from(view.rows, (row) =>
      COLUMN_PRESENTATIONS.get('distance')!.format(table.cells('distance', view.context)[row], UTC_CLOCK),
    );
    // Reference values from the spherical law of cosines (an independent formula), times 0.621371.
    expect(distances).toEqual(['0.000', '16.480', '31.048', '35.994']);
    // Without a geo filter the column is empty.
    expect(table.cells('distance', { distanceFrom: null }).every((cell) => cell === null)).toBe(true);
  });

  it('answers the cached order itself when nothing filters', () => {
    const table = index();
    const sort: TableSort = { key: 'name', direction: 'asc' };
    expect(table.view([], sort).rows).toBe(table.view([{ type: 'LIMIT', value: '' }], sort).rows);
  });
});
