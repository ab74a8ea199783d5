import { describe, expect, it } from 'vitest';
import { COLUMN_PRESENTATIONS } from './columns';
import { fixtureColumns } from './fixtures';
import { LiveChangeLog, applyTableChanges, prepareRowIndex } from './live-changes';
import { decodeDeviceTable } from './table-data';
import { TableIndex } from './table-view';
import { SPEC_CLOCK_FORMAT, type Clock } from '@fieldlink/domain/date-format';

const UTC_CLOCK: Clock = { timeZone: 'UTC', ...SPEC_CLOCK_FORMAT };

const table = () =>
  decodeDeviceTable(
    fixtureColumns([
      { name: 'Boiler', thingName: 'B-1', isConnected: 1, fw: '4.10.0', lastConnection: 100 },
      { name: 'Chiller', thingName: 'C-1', isConnected: 0, fw: '4.9.0', otaState: 'DOWNLOADING', otaPercent: 20 },
      { name: 'Tank', thingName: 'T-1', isConnected: 1, fw: '4.11.0' },
    ]),
  );
const cell = (index: TableIndex, key: string, row: number) => {
  const column = COLUMN_PRESENTATIONS.get(key)!;
  return column.format(column.read(index.data, row, { distanceFrom: null }), UTC_CLOCK);
};

describe('applyTableChanges', () => {
  it('writes connection state, firmware and OTA progress into the rows it names, and counts each row’s changes', () => {
    const data = table();
    const applied = applyTableChanges(data, [
      { thingName: 'C-1', isConnected: true, lastConnection: 500, lastDisconnection: null },
      { thingName: 'C-1', otaState: 'DOWNLOADING', otaPercent: 60 },
      { thingName: 'B-1', fw: '4.12.0', otaState: 'SUCCEEDED', otaPercent: 100, otaPendingSubmittedAt: null },
      { thingName: 'UNKNOWN-1', isConnected: true },
    ]);
    const index = new TableIndex(data);
    expect(applied.rows).toBe(3);
    expect([...applied.columns].sort()).toEqual(
      [
        'fw',
        'hasPendingUpdate',
        'isConnected',
        'lastConnection',
        'lastDisconnection',
        'otaStatus',
        'updatePending',
      ].sort(),
    );
    expect(cell(index, 'isConnected', 1)).toBe('Online');
    expect(cell(index, 'otaStatus', 1)).toBe('Downloading 60%');
    expect(cell(index, 'lastDisconnection', 1)).toBe('');
    expect(cell(index, 'fw', 0)).toBe('4.12.0');
    expect(cell(index, 'otaStatus', 0)).toBe('Succeeded');
    expect(Array.from(data.revision)).toEqual([1, 2, 0]);
  });

  it('keeps the shown order until the index lets go of the changed columns, then sorts by the new values', () => {
    const data = table();
    const index = new TableIndex(data);
    const byFirmware = () => Array.from(index.view([], { key: 'fw', direction: 'asc' }).rows);
    expect(byFirmware()).toEqual([1, 0, 2]);
    const { columns } = applyTableChanges(data, [{ thingName: 'C-1', fw: '5.0.0' }]);
    expect(byFirmware()).toEqual([1, 0, 2]);
    index.forget(columns);
    expect(byFirmware()).toEqual([0, 2, 1]);
  });

  it('finds the rows of a table whose name index was built a slice at a time, or not finished', () => {
    const devices = Array.from({ length: 10_000 }, (_, row) => ({
      name: `D${row}`,
      thingName: `T-${row}`,
      isConnected: 0,
    }));
    const sliced = decodeDeviceTable(fixtureColumns(devices));
    let slices = 0;
    while (!prepareRowIndex(sliced, () => false)) slices += 1;
    expect(slices).toBeGreaterThan(0);
    const unfinished = decodeDeviceTable(fixtureColumns(devices));
    expect(prepareRowIndex(unfinished, () => false)).toBe(false);
    for (const data of [sliced, unfinished]) {
      const changes = [0, 4095, 4096, 9_999].map((row) => ({ thingName: `T-${row}`, isConnected: true }));
      expect(applyTableChanges(data, changes).rows).toBe(4);
      expect([0, 4095, 4096, 9_999, 5].map((row) => data.numbers.isConnected[row])).toEqual([1, 1, 1, 1, 0]);
      expect(prepareRowIndex(data, () => false)).toBe(true);
    }
  });
});

// Issue 35 item 9: a table read after the feed's batches, but built before them, keeps what they showed.
describe('LiveChangeLog', () => {
  it('gives back the batches sent after a table was generated, within its window', () => {
    const log = new LiveChangeLog(60_000);
    log.record(1_000, [{ thingName: 'B-1', otaState: 'DOWNLOADING', otaPercent: 40 }]);
    log.record(30_000, [{ thingName: 'B-1', fw: '4.12.0', otaState: 'SUCCEEDED', otaPercent: 100 }]);
    log.record(70_000, [{ thingName: 'C-1', isConnected: true }]);
    // The first batch fell out of the window; the table of 2,000 missed the second and the third.
    expect(log.since(0).map((change) => change.thingName)).toEqual(['B-1', 'C-1']);
    expect(log.since(2_000)).toEqual([
      { thingName: 'B-1', fw: '4.12.0', otaState: 'SUCCEEDED', otaPercent: 100 },
      { thingName: 'C-1', isConnected: true },
    ]);
    expect(log.since(70_000)).toEqual([]);
    // Written into the older table, the firmware the update installed stays.
    const data = table();
    applyTableChanges(data, log.since(2_000));
    expect(cell(new TableIndex(data), 'fw', 0)).toBe('4.12.0');
  });
});
