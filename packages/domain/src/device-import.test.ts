import { describe, expect, it } from 'vitest';
import { DEVICE_IMPORT_EXAMPLE, readDeviceImport, splitGroupPath } from './device-import';

const HEADER = 'name,serial,group path,tags\n';
const rowsOf = (body: string, header = HEADER) => {
  const file = readDeviceImport(header + body);
  if (file.fileError !== null) throw new Error(file.fileError);
  return file.rows;
};

describe('readDeviceImport', () => {
  it('reads the example file: names, serials, group paths and tags, with no errors', () => {
    expect(readDeviceImport(DEVICE_IMPORT_EXAMPLE)).toEqual({
      fileError: null,
      rows: [
        {
          line: 2,
          name: 'Boiler 3',
          sn: 'SN-1003',
          groupPath: ['Boiler Room'],
          tags: [
            { key: 'site', value: 'North' },
            { key: 'floor', value: '2' },
          ],
          errors: [],
        },
        { line: 3, name: 'Spare pump', sn: 'SN-2001', groupPath: [], tags: [], errors: [] },
      ],
    });
  });

  it.each([
    ['a missing name', ',SN-1,Boiler Room,', ['The name is missing.']],
    ['an over-long name', `${'x'.repeat(101)},SN-1,,`, ['The name is longer than 100 characters.']],
    ['an over-long serial', `Pump,${'9'.repeat(65)},,`, ['The serial is longer than 64 characters.']],
    ['too few cells', 'Pump,SN-1', ['Expected 4 cells, found 2.']],
    ['too many cells', 'Pump,SN-1,,,extra', ['Expected 4 cells, found 5.']],
    ['a tag without =', 'Pump,SN-1,,site', ['Tag “site” is not written key=value.']],
    ['a tag without a key', 'Pump,SN-1,,=North', ['Tag “=North” is not written key=value.']],
    ['a missing name and a bad tag', ',SN-1,,floor', ['The name is missing.', 'Tag “floor” is not written key=value.']],
  ])('names %s on its row', (_name, line, errors) => {
    expect(rowsOf(`${line}\n`)[0]!.errors).toEqual(errors);
  });

  it('names a serial used twice on the second row, with the line of the first', () => {
    const rows = rowsOf('A,SN-1,,\nB,sn-1,,\nC,,,\nD,,,\n');
    expect(rows.map((row) => row.errors)).toEqual([[], ['Serial sn-1 is also on line 2.'], [], []]);
  });

  it('counts lines of quoted cells with line breaks, and skips blank lines', () => {
    const rows = rowsOf('"Pump, ""north""",SN-1,"Boiler Room / East",\n\n"Two\nlines",SN-2,,\r\nLast,SN-3,,\n');
    expect(rows.map((row) => [row.line, row.name, row.groupPath])).toEqual([
      [2, 'Pump, "north"', ['Boiler Room', 'East']],
      [4, 'Two\nlines', []],
      [6, 'Last', []],
    ]);
  });

  it('takes the columns in any order, under other usual names, and without tags', () => {
    const rows = rowsOf('Cold Store,SN-9,Freezer\n', 'Group,Serial Number,Device name\n');
    expect(rows[0]).toMatchObject({ name: 'Freezer', sn: 'SN-9', groupPath: ['Cold Store'], tags: [], errors: [] });
  });

  it.each([
    ['an empty file', '', 'The file is empty.'],
    ['a header only', HEADER, 'The file has no devices.'],
    [
      'an unknown column',
      'name,serial,group path,colour\nA,,,red\n',
      'The first line must name the columns: name, serial, group path, tags (tags may be left out).',
    ],
    [
      'a missing column',
      'name,tags\nA,\n',
      'The first line must name the columns: name, serial, group path, tags (tags may be left out).',
    ],
    ['an unclosed quote', `${HEADER}A,SN-1,,\n"B,SN-2,,\n`, 'Line 3: a quoted cell is never closed.'],
    ['too many rows', HEADER + 'A,,,\n'.repeat(5001), 'At most 5,000 devices per file; this one has 5,001.'],
    ['too many characters', HEADER + 'A'.repeat(1_000_000), 'The file is larger than 1,000,000 characters.'],
  ])('refuses %s as a whole', (_name, text, fileError) => {
    expect(readDeviceImport(text)).toEqual({ rows: [], fileError });
  });
});

describe('splitGroupPath', () => {
  it.each([
    ['', []],
    ['Boiler Room', ['Boiler Room']],
    [' Customers / Acme Controls /Boiler Room/ ', ['Customers', 'Acme Controls', 'Boiler Room']],
    ['//', []],
  ])('%j -> %j', (text, names) => expect(splitGroupPath(text)).toEqual(names));
});
