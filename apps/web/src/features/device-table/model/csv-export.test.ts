import { describe, expect, it } from 'vitest';
import { presentationsOf } from './columns';
import { csvFileName, tableCsv } from './csv-export';
import { fixtureColumns } from './fixtures';
import { decodeDeviceTable } from './table-data';
import { TableIndex } from './table-view';

const table = new TableIndex(
  decodeDeviceTable(
    fixtureColumns([
      { id: 'a', name: '=cmd|"/c calc"!A1', signal: -71, site: '+Site', fw: '4.2' },
      { id: 'b', name: 'Pump, north', signal: null, site: '@home', fw: '4.10' },
      { id: 'c', name: 'Tank', signal: -5, site: '\tTab', fw: null },
    ]),
  ),
);
const columns = presentationsOf(['name', 'signal', 'site', 'fw']);

describe('tableCsv', () => {
  it('exports the shown rows in their order, with formula triggers neutralised', () => {
    const view = table.view([], { key: 'fw', direction: 'desc' });
    expect(tableCsv(table, view, columns)).toBe(
      [
        'Name,Signal strength,Site,Firmware',
        '"Pump, north",,\'@home,4.10',
        '"\'=cmd|""/c calc""!A1",-71,\'+Site,4.2',
        "Tank,-5,'\tTab,",
        '',
      ].join('\r\n'),
    );
  });

  it('exports only the filtered rows, or only the selected ones', () => {
    const view = table.view([{ type: 'ATTRIBUTE', attribute: 'signal', operator: '<', value: '-10' }], null);
    expect(tableCsv(table, view, columns).split('\r\n')).toHaveLength(3);
    const all = table.view([], null);
    expect(tableCsv(table, all, presentationsOf(['id']), new Set(['c', 'a']))).toBe('ID\r\na\r\nc\r\n');
  });

  it.each([
    ['UTC', 'devices-2026-11-05.csv'],
    ['Australia/Sydney', 'devices-2026-11-06.csv'],
    ['America/Los_Angeles', 'devices-2026-11-05.csv'],
  ])('names the file after the day in %s', (zone, file) =>
    // 15:00 UTC on 5 November is already 6 November in Sydney.
    expect(csvFileName(Date.UTC(2026, 10, 5, 15), zone)).toBe(file),
  );
});
