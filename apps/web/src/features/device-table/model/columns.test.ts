import { describe, expect, it } from 'vitest';
import { DEVICE_COLUMNS } from '@fieldlink/domain/device-columns';
import { COLUMN_PRESENTATIONS, presentationsOf, utcOffsetText } from './columns';
import { fixtureColumns } from './fixtures';
import { decodeDeviceTable } from './table-data';
import { SPEC_CLOCK_FORMAT, type Clock } from '@fieldlink/domain/date-format';

const UTC_CLOCK: Clock = { timeZone: 'UTC', ...SPEC_CLOCK_FORMAT };

const data = decodeDeviceTable(
  fixtureColumns([
    {
      name: '=HYPERLINK("x")',
      plan: 'PREMIUM',
      base: 'GEN_CTRL 2.4',
      custom: 'Unfieldlinkd',
      tzName: 'Australia/Brisbane',
      errorStatus: 9,
      statusSp: 192,
      otaPendingSubmittedAt: 5,
      pendingMessages: 2,
      muted: 1,
      group: 3,
      lastConnection: Date.UTC(2026, 0, 2, 3, 4, 5),
      lat: 32.7767,
    },
    { name: 'Plain', plan: 'FREE', custom: 'Vats 4.2', errorStatus: 0, pendingMessages: 0, muted: 0 },
  ]),
);
const cell = (key: string, row: number) => {
  const column = COLUMN_PRESENTATIONS.get(key)!;
  const value = column.read(data, row, { distanceFrom: null });
  return { value, shown: column.format(value, UTC_CLOCK), exported: column.exportValue(value) };
};

describe('column presentations', () => {
  it('covers every column of §2', () => {
    expect([...COLUMN_PRESENTATIONS.keys()]).toEqual(DEVICE_COLUMNS.map((column) => column.key));
    expect(presentationsOf(['fw', 'gone', 'name']).map((column) => column.key)).toEqual(['fw', 'name']);
  });

  it.each<[string, number, string]>([
    ['plan', 0, 'Premium'],
    ['plan', 1, 'Free'],
    ['macros', 0, 'GEN_CTRL 2.4'],
    ['macros', 1, 'Vats 4.2'],
    ['groupPath', 0, 'Acme / Cellar / Tanks'],
    ['groupPath', 1, 'Acme'],
    ['utcOffset', 0, 'UTC+10:00'],
    ['error', 0, '#9 Power supply error'],
    ['error', 1, 'None'],
    ['alarm', 0, 'Alarm 6, Alarm 7'],
    ['alarm', 1, ''],
    ['otaStatus', 0, 'Pending'],
    ['updatePending', 0, 'Yes'],
    ['updatePending', 1, 'No'],
    ['hasPendingUpdate', 0, 'Yes'],
    ['hasPendingUpdate', 1, 'No'],
    ['muted', 0, 'Yes'],
    ['isConnected', 0, 'Offline'],
    ['lat', 0, '32.776700'],
    ['lng', 0, ''],
    ['sn', 0, ''],
  ])('%s of row %i shows %j', (key, row, shown) => expect(cell(key, row).shown).toBe(shown));

  it('exports numbers as numbers and dates as ISO 8601', () => {
    expect(cell('lastConnection', 0).exported).toBe('2026-01-02T03:04:05.000Z');
    expect(cell('lat', 0).exported).toBe(32.7767);
    expect(cell('signal', 0).exported).toBeNull();
    expect(cell('isConnected', 0).exported).toBe('Offline');
  });

  it('writes UTC offsets with hours and minutes', () => {
    expect(utcOffsetText('Asia/Kolkata')).toBe('UTC+05:30');
    expect(utcOffsetText('UTC')).toBe('UTC+00:00');
    expect(utcOffsetText('Not/AZone')).toBeNull();
  });
});
