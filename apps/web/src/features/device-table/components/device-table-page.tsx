import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DEVICE_COLUMNS } from '@fieldlink/domain/device-columns';
import type { DeviceFilter } from '@fieldlink/domain/device-filter';
import { Button } from '../../../components/ui/button';
import { CloseIcon, DeviceIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { PanelMessage } from '../../../components/ui/panel-message';
import { RefreshButton } from '../../../components/ui/refresh-button';
import { Spinner } from '../../../components/ui/spinner';
import { formatAge } from '../../../lib/format-time';
import { useNow } from '../../../lib/clock';
import { serverErrorMessage } from '../../../lib/api-client';
import { downloadCsv } from '../../../lib/download-csv';
import { useDeviceTable } from '../api/get-device-table';
import { useAvailableHeight } from '../hooks/use-available-height';
import { useLiveTable, type LiveTable } from '../hooks/use-live-table';
import { useTableSettings } from '../hooks/use-table-settings';
import { presentationsOf } from '../model/columns';
import type { DeviceTableData } from '../model/table-data';
import { csvFileName, tableCsv } from '../model/csv-export';
import { describeFilter } from '../model/filter-text';
import { nextSort } from '../model/table-settings';
import { tableIndexOf } from '../model/table-view';
import { ColumnChooser } from './column-chooser';
import { FilterEditor } from './filter-editor';
import { ColumnsIcon, DownloadIcon, FilterIcon } from './table-icons';
import { VirtualTable } from './virtual-table';
import './device-table.css';

export interface DeviceTablePageProps {
  /**
   * Bulk actions on the selected devices (OTA updates, tags), drawn in the selection bar. The app
   * passes them in, so the features that own those actions need not import this one.
   */
  bulkActions?: (deviceIds: string[], data: DeviceTableData) => ReactNode;
  /** Actions on the whole list in the toolbar (adding devices), passed in by the app likewise. */
  toolbarActions?: ReactNode;
}

const countFormat = new Intl.NumberFormat();
/**
 * Time a header click may spend building the order it needs; past it the rows are deferred. Built in
 * the click, the rows show with the header in one render and one frame (deferred, they cost another
 * render and a frame or two more); the limit keeps the header prompt when a build is long.
 */
const SORT_BUILD_MS = 80;

/** /accounts/list: every device the user may see in one table, with filters and chosen columns (§2). */
export function DeviceTablePage({ bulkActions, toolbarActions }: DeviceTablePageProps = {}) {
  const table = useDeviceTable();
  const { filters, setFilters, columns: columnKeys, setColumns, sort, setSort } = useTableSettings();
  const [filtersOpen, setFiltersOpen] = useState(() => filters.length > 0);
  const [chooserOpen, setChooserOpen] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const tableTop = useRef<HTMLDivElement>(null);

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
  const height = useAvailableHeight(
    tableTop,
    24,
    320,
    `${filtersOpen}:${filters.length}:${chips.length}:${selected.size > 0}`,
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
      if (pending.length > 0) handle = requestIdleCallback(work, { timeout: 10_000 });
    };
    handle = requestIdleCallback(work, { timeout: 10_000 });
    return () => cancelIdleCallback(handle);
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
  const onToggleRow = useCallback(
    (id: string) =>
      setSelected((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const onToggleAll = useCallback(() => {
    if (!view || !data) return;
    setSelected((current) => {
      const shownIds = Array.from(view.rows, (row) => data.text.id[row] ?? '');
      const allShown = shownIds.length > 0 && shownIds.every((id) => current.has(id));
      const next = new Set(current);
      for (const id of shownIds) {
        if (allShown) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  }, [view, data]);
  const onExport = (only?: ReadonlySet<string>) => {
    if (index && view) downloadCsv(tableCsv(index, view, columns, only), csvFileName());
  };
  const onFilters = (next: DeviceFilter[]) => setFilters(next);
  const removeFilter = (position: number) => setFilters(filters.filter((_, i) => i !== position));

  if (table.isPending) {
    return (
      <div className="fl-page">
        <div className="dt-loading fl-card" role="status">
          <Spinner size={22} />
          <div>
            <strong>Loading devices…</strong>
            <p className="fl-muted">Large fleets take a moment the first time; after that the table opens at once.</p>
          </div>
        </div>
      </div>
    );
  }
  if (table.isError || !data || !index || !view) {
    return (
      <div className="fl-page">
        <InlineAlert tone="error">
          The device list could not be loaded: {serverErrorMessage(table.error)}{' '}
          <Button size="sm" variant="secondary" onClick={() => void table.refetch()}>
            Try again
          </Button>
        </InlineAlert>
      </div>
    );
  }
  if (data.count === 0) {
    return (
      <PanelMessage icon={<DeviceIcon size={26} />} eyebrow="Device list" title="No devices yet">
        Devices appear here once they are added to one of your groups.
      </PanelMessage>
    );
  }

  const shown = view.rows.length;
  const selectedIds = [...selected];
  const activeCount = view.filter.active.length;
  return (
    <div className="fl-page">
      <PageHeader
        title="Devices"
        summary={
          <>
            <span data-testid="device-count">
              {shown === data.count
                ? `${countFormat.format(data.count)} devices`
                : `${countFormat.format(shown)} of ${countFormat.format(data.count)} devices`}
            </span>
            <span className="dt-header__age">
              <TableAge live={live} />
              <RefreshButton query={table} />
            </span>
          </>
        }
      >
        <div className="dt-toolbar">
          {toolbarActions}
          <Button
            size="sm"
            variant={filtersOpen ? 'primary' : 'secondary'}
            aria-expanded={filtersOpen}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <FilterIcon size={15} /> Filters
            {activeCount > 0 && <span className="dt-count">{activeCount}</span>}
          </Button>
          <div className="dt-toolbar__anchor">
            <Button
              size="sm"
              variant={chooserOpen ? 'primary' : 'secondary'}
              aria-expanded={chooserOpen}
              data-column-toggle=""
              onClick={() => setChooserOpen((open) => !open)}
            >
              <ColumnsIcon size={15} /> Columns
            </Button>
            {chooserOpen && (
              <ColumnChooser chosen={columnKeys} onChange={setColumns} onClose={() => setChooserOpen(false)} />
            )}
          </div>
          <Button size="sm" variant="secondary" onClick={() => onExport()} disabled={shown === 0}>
            <DownloadIcon size={15} /> Export CSV
          </Button>
        </div>
      </PageHeader>

      {filtersOpen ? (
        <FilterEditor
          filters={filters}
          onChange={onFilters}
          groups={data.groups}
          groupPathNames={data.groupPathNames}
        />
      ) : (
        chips.length > 0 && (
          <ul className="dt-chips" aria-label="Active filters">
            {chips.map((chip) => (
              <li key={chip.position} className="dt-chip">
                <span>{chip.text}</span>
                <button
                  type="button"
                  aria-label={`Remove filter ${chip.text}`}
                  onClick={() => removeFilter(chip.position)}
                >
                  <CloseIcon size={13} />
                </button>
              </li>
            ))}
            <li>
              <button type="button" className="dt-link-button" onClick={() => setFilters([])}>
                Clear all
              </button>
            </li>
          </ul>
        )
      )}

      {selected.size > 0 && (
        <div className="dt-selection" role="region" aria-label="Selection">
          <strong>{countFormat.format(selected.size)} selected</strong>
          {bulkActions?.(selectedIds, data)}
          <span className="dt-selection__spacer" />
          <Button size="sm" variant="secondary" onClick={() => onExport(selected)}>
            <DownloadIcon size={15} /> Export selected
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        </div>
      )}

      <div ref={tableTop} className="dt-table-frame fl-card">
        <VirtualTable
          data={data}
          rows={view.rows}
          columns={columns}
          context={view.context}
          sort={sort}
          onSort={onSort}
          selected={selected}
          onToggleRow={onToggleRow}
          onToggleAll={onToggleAll}
          height={height}
          busy={appliedFilters !== filters || appliedSort !== sort}
          scrollResetKey={JSON.stringify([appliedFilters, appliedSort])}
        />
        {shown === 0 && (
          <div className="dt-no-match">
            <strong>No devices match these filters</strong>
            <Button size="sm" variant="secondary" onClick={() => setFilters([])}>
              Clear filters
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * How current the table is, ticking on the shared clock (this component alone draws again each
 * second): "Live" while the real-time feed keeps it current, with the time of the last change; else
 * the age of the last read.
 */
function TableAge({ live }: { live: LiveTable }) {
  const now = useNow();
  const age = formatAge(live.changedAt, now);
  if (!live.live) return <span data-testid="device-table-age">updated {age}</span>;
  return (
    <span
      className="dt-live"
      data-testid="device-table-age"
      title="Connection state, firmware and OTA progress update live"
    >
      <span className="dt-live__dot" aria-hidden="true" />
      Live · last change {age}
    </span>
  );
}
