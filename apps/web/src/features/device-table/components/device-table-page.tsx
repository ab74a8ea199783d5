import { useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { DeviceIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PanelMessage } from '../../../components/ui/panel-message';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';
import { downloadCsv } from '../../../lib/download-csv';
import { usePageClock } from '../../../lib/page-time-zone';
import { useAvailableHeight } from '../hooks/use-available-height';
import { useDeviceTableView } from '../hooks/use-device-table-view';
import { useRowSelection } from '../hooks/use-row-selection';
import { csvFileName, tableCsv } from '../model/csv-export';
import type { DeviceTableData } from '../model/table-data';
import { DeviceTableHeader, FilterChips, SelectionBar } from './device-table-parts';
import { FilterEditor } from './filter-editor';
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

/** /accounts/list: every device the user may see in one table, with filters and chosen columns (§2). */
export function DeviceTablePage({ bulkActions, toolbarActions }: DeviceTablePageProps = {}) {
  const clock = usePageClock();
  const table = useDeviceTableView();
  const { data, index, view, filters, setFilters, chips } = table;
  const selection = useRowSelection(view, data);
  const { selected } = selection;
  const [filtersOpen, setFiltersOpen] = useState(() => filters.length > 0);
  const tableTop = useRef<HTMLDivElement>(null);
  const height = useAvailableHeight(
    tableTop,
    24,
    320,
    `${filtersOpen}:${filters.length}:${chips.length}:${selected.size > 0}`,
  );
  const onExport = (only?: ReadonlySet<string>) => {
    if (index && view) downloadCsv(tableCsv(index, view, table.columns, only), csvFileName(Date.now(), clock.timeZone));
  };

  if (table.table.isPending) {
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
  if (table.table.isError || !data || !index || !view) {
    return (
      <div className="fl-page">
        <InlineAlert tone="error">
          The device list could not be loaded: {serverErrorMessage(table.table.error)}{' '}
          <Button size="sm" variant="secondary" onClick={() => void table.table.refetch()}>
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

  return (
    <div className="fl-page">
      <DeviceTableHeader
        table={table}
        shown={view.rows.length}
        count={data.count}
        activeFilters={view.filter.active.length}
        filtersOpen={filtersOpen}
        onToggleFilters={() => setFiltersOpen((open) => !open)}
        onExport={() => onExport()}
        toolbarActions={toolbarActions}
      />

      {filtersOpen ? (
        <FilterEditor
          filters={filters}
          onChange={setFilters}
          groups={data.groups}
          groupPathNames={data.groupPathNames}
        />
      ) : (
        <FilterChips
          chips={chips}
          onRemove={(position) => setFilters(filters.filter((_, i) => i !== position))}
          onClear={() => setFilters([])}
        />
      )}

      {selected.size > 0 && (
        <SelectionBar count={selected.size} onExport={() => onExport(selected)} onClear={selection.clear}>
          {bulkActions?.([...selected], data)}
        </SelectionBar>
      )}

      <div ref={tableTop} className="dt-table-frame fl-card">
        <VirtualTable
          data={data}
          rows={view.rows}
          columns={table.columns}
          context={view.context}
          sort={table.sort}
          onSort={table.onSort}
          selected={selected}
          onToggleRow={selection.onToggleRow}
          onToggleAll={selection.onToggleAll}
          height={height}
          busy={table.busy}
          scrollResetKey={table.scrollResetKey}
        />
        {view.rows.length === 0 && (
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
