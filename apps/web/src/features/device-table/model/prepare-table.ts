import type { DeviceTableData } from './table-data';
import { browserStorage, readSort } from './table-settings';
import { tableIndexOf } from './table-view';
import { whenIdle } from '../../../lib/idle';

/**
 * Builds, in idle time, the sorted order the device list will open with (its stored sort), for a
 * table that arrived before its page: at start-up the table is decoded while /loading still waits for
 * the account tree, so the first render shows rows in their order without sorting 100,000 of them
 * (about 200 ms for names). The page's own idle work (`DeviceTablePage`) builds the other orders.
 */
export function prepareStoredSort(data: DeviceTableData): void {
  const sort = readSort(browserStorage());
  if (!sort) return;
  const index = tableIndexOf(data);
  const work = (deadline: IdleDeadline) => {
    if (!index.prepareOrder(sort.key, true, () => deadline.timeRemaining() > 1)) {
      whenIdle(work, { timeout: 10_000 });
    }
  };
  whenIdle(work, { timeout: 10_000 });
}
