import { useCallback, useDeferredValue, useEffect, useMemo } from 'react';
import { DEVICE_COLUMNS } from '@fieldlink/domain/device-columns';
import { useDeviceTable } from '../api/get-device-table';
import { presentationsOf } from '../model/columns';
import { describeFilter } from '../model/filter-text';
import { nextSort } from '../model/table-settings';
import { tableIndexOf } from '../model/table-view';
import { useLiveTable } from './use-live-table';
import { useTableSettings } from './use-table-settings';
import { cancelIdle, whenIdle } from '../../../lib/idle';

/**
 * Time a header click may spend building the order it needs; past it the rows are deferred. Built in
 * the click, the rows show with the header in one render and one frame (deferred, they cost another
 * render and a frame or two more); the limit keeps the header prompt when a build is long.
 */
const SORT_BUILD_MS = 80;

/**
 * The device table's data: `GET /devices/table`, its index kept current by the live feed, the
 * stored filters, columns and sort, and the rows they show. Filters and a sort whose order is not
 * built yet are applied a moment later, so typing and header clicks stay prompt; every column's
 * order is built in idle time.
 */
export function useDeviceTableView() {
  const table = useDeviceTable();
  const { filters, setFilters, columns: columnKeys, setColumns, sort, setSort } = useTableSettings();

  // Typing in a filter stays responsive: the table follows a moment later if filtering takes a while.
  const appliedFilters = useDeferredValue(filters);
  const data = table.data;
  const index = useMemo(() => (data ? tableIndexOf(data) : null), [data]);
  const live = useLiveTable(data, index, table.refetch);
  // The same for a sort whose order is not built yet (longer than a frame): the header shows the new
  // sort at once, the rows follow when sorted. A built order costs a pass over the rows: the header
  // and the rows are shown together, in one render.
  const deferredSort = useDeferredValue(sort);
  const appliedSort = sort === null || index?.hasOrder(sort.key) ? sort : deferredSort;
  const view = useMemo(() => index?.view(appliedFilters, appliedSort) ?? null, [index, appliedFilters, appliedSort]);
  const columns = useMemo(() => presentationsOf(columnKeys), [columnKeys]);
  const chips = useMemo(
    () =>
      filters
        .map((filter, position) => ({ position, text: describeFilter(filter, data?.groups) }))
        .filter((chip): chip is { position: number; text: string } => chip.text !== null),
    [filters, data],
  );

  // Every column's sorted order is built while the page is idle (again after live changes wrote into
  // it), the shown columns first (a column just added at once), a slice of about a millisecond at a
  // time for as long as each idle period lasts: a click on a header then costs a pass over the rows
  // rather than a sort of them, and no build holds the main thread for long.
  useEffect(() => {
    if (!index) return;
    const shown = new Set(columnKeys);
    const pending = [
      ...columnKeys,
      ...DEVICE_COLUMNS.map((column) => column.key).filter((key) => !shown.has(key)),
    ].filter((key) => !index.hasOrder(key));
    let handle = 0;
    const work = (deadline: IdleDeadline) => {
      const more = () => deadline.timeRemaining() > 1;
      while (pending.length > 0) {
        const key = pending[0]!;
        if (!index.prepareOrder(key, shown.has(key), more)) break;
        pending.shift();
        if (!more()) break;
      }
      if (pending.length > 0) handle = whenIdle(work, { timeout: 10_000 });
    };
    handle = whenIdle(work, { timeout: 10_000 });
    return () => cancelIdle(handle);
    // A live batch makes the index forget the orders of the columns it wrote: they are built again.
  }, [index, columnKeys, live.revision]);

  const onSort = useCallback(
    (key: string) => {
      // An order not built yet (a column just added, a table just opened) is built in the click when
      // that is quick; a longer build goes on in idle time or when the deferred rows need it.
      const until = performance.now() + SORT_BUILD_MS;
      index?.prepareOrder(key, true, () => performance.now() < until);
      setSort(nextSort(sort, key));
    },
    [index, sort, setSort],
  );

  return {
    table,
    data,
    index,
    live,
    view,
    columns,
    columnKeys,
    setColumns,
    filters,
    setFilters,
    chips,
    sort,
    onSort,
    /** Filters or a sort are chosen but their rows are not shown yet. */
    busy: appliedFilters !== filters || appliedSort !== sort,
    /** Changes when the shown rows are another list: the table scrolls back to the top. */
    scrollResetKey: JSON.stringify([appliedFilters, appliedSort]),
  };
}
