import type { DeviceTableChange } from '@fieldlink/api/realtime';
import type { DeviceTableData } from './table-data';

type ChangeField = Exclude<keyof DeviceTableChange, 'thingName'>;

const OTA_COLUMNS = ['otaStatus', 'updatePending', 'hasPendingUpdate'] as const;

/** The table's columns (presentation keys) each field of a live change feeds. */
const COLUMNS_OF: Readonly<Record<ChangeField, readonly string[]>> = {
  isConnected: ['isConnected'],
  lastConnection: ['lastConnection'],
  lastDisconnection: ['lastDisconnection'],
  fw: ['fw'],
  otaState: OTA_COLUMNS,
  otaPercent: OTA_COLUMNS,
  otaPendingSubmittedAt: OTA_COLUMNS,
};

/** Names indexed per slice of idle time (about a millisecond of work). */
const ROW_INDEX_SLICE = 4096;

/** The row of each thing name, and how far its build has come. */
interface RowIndex {
  rows: Map<string, number>;
  next: number;
}

const rowIndexes = new WeakMap<DeviceTableData, RowIndex>();

/**
 * Builds the row of each thing name, a slice at a time while `more` answers true; answers true once
 * it is whole. The table calls it in idle time as soon as it watches its feed, so no batch builds it:
 * at 100,000 rows that is tens of milliseconds, and the first batch used to pay them all.
 */
export function prepareRowIndex(data: DeviceTableData, more: () => boolean = () => true): boolean {
  let index = rowIndexes.get(data);
  if (!index) {
    index = { rows: new Map(), next: 0 };
    rowIndexes.set(data, index);
  }
  const names = data.text.thingName;
  while (index.next < data.count) {
    const end = Math.min(data.count, index.next + ROW_INDEX_SLICE);
    for (let row = index.next; row < end; row += 1) {
      const name = names[row];
      if (name) index.rows.set(name, row);
    }
    index.next = end;
    if (!more()) break;
  }
  return index.next >= data.count;
}

/** The row of each thing name, built once per table (finished here if idle time has not yet). */
function rowOfThing(data: DeviceTableData): Map<string, number> {
  prepareRowIndex(data);
  return rowIndexes.get(data)!.rows;
}

const numberOrNaN = (value: number | null): number => (value === null ? Number.NaN : value);

/** What a batch of live changes did to a table. */
export interface AppliedChanges {
  /** Rows whose values changed. */
  rows: number;
  /** Columns whose cells changed (the index lets go of what it read of them). */
  columns: Set<string>;
}

/**
 * Writes a batch of the table's live feed into the decoded table, in place: a few array writes per
 * device, whatever the size of the fleet, so a batch costs what it changes and nothing more. Devices
 * the table does not hold (added since it was read) are skipped; the next read brings them.
 */
export function applyTableChanges(data: DeviceTableData, changes: readonly DeviceTableChange[]): AppliedChanges {
  const rows = rowOfThing(data);
  const columns = new Set<string>();
  let changed = 0;
  for (const change of changes) {
    const row = rows.get(change.thingName);
    if (row === undefined) continue;
    if (change.isConnected !== undefined) data.numbers.isConnected[row] = change.isConnected ? 1 : 0;
    if (change.lastConnection !== undefined) data.numbers.lastConnection[row] = numberOrNaN(change.lastConnection);
    if (change.lastDisconnection !== undefined) {
      data.numbers.lastDisconnection[row] = numberOrNaN(change.lastDisconnection);
    }
    if (change.fw !== undefined) data.text.fw[row] = change.fw;
    if (change.otaState !== undefined) data.text.otaState[row] = change.otaState;
    if (change.otaPercent !== undefined) data.numbers.otaPercent[row] = numberOrNaN(change.otaPercent);
    if (change.otaPendingSubmittedAt !== undefined) {
      data.numbers.otaPendingSubmittedAt[row] = numberOrNaN(change.otaPendingSubmittedAt);
    }
    for (const field of Object.keys(change) as (ChangeField | 'thingName')[]) {
      if (field !== 'thingName') for (const column of COLUMNS_OF[field]) columns.add(column);
    }
    data.revision[row] = data.revision[row]! + 1;
    changed += 1;
  }
  return { rows: changed, columns };
}

/** How long the live feed's batches are kept to be written again into a table read after them. */
const LIVE_REPLAY_MS = 180_000;

/**
 * The live feed's batches of the last minutes. The server answers a table up to its age limit old
 * while it builds the next (stale-while-revalidate), so a table read after a batch may have been
 * built before it: written into that table again, the batches keep what the page already showed
 * (issue 35 item 9: the firmware an OTA update installed went back to the old one when the console
 * read the table again 30 s after the update).
 */
export class LiveChangeLog {
  private batches: { at: number; changes: readonly DeviceTableChange[] }[] = [];

  constructor(private readonly keepMs = LIVE_REPLAY_MS) {}

  /** Keeps a batch sent at `at` (server time), and lets go of those older than the window. */
  record(at: number, changes: readonly DeviceTableChange[]): void {
    this.batches = this.batches.filter((batch) => batch.at >= at - this.keepMs);
    this.batches.push({ at, changes });
  }

  /** The changes of the batches sent after a table was generated, oldest first. */
  since(generatedAt: number): DeviceTableChange[] {
    return this.batches.filter((batch) => batch.at > generatedAt).flatMap((batch) => batch.changes);
  }
}
