import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { CloseIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { RefreshButton } from '../../../components/ui/refresh-button';
import { useNow } from '../../../lib/clock';
import { formatAge } from '../../../lib/format-time';
import type { useDeviceTableView } from '../hooks/use-device-table-view';
import type { LiveTable } from '../hooks/use-live-table';
import { ColumnChooser } from './column-chooser';
import { ColumnsIcon, DownloadIcon, FilterIcon } from './table-icons';

const countFormat = new Intl.NumberFormat();

/** The title, how many devices are shown and how current they are, and the toolbar. */
export function DeviceTableHeader({
  table,
  shown,
  count,
  activeFilters,
  filtersOpen,
  onToggleFilters,
  onExport,
  toolbarActions,
}: {
  table: ReturnType<typeof useDeviceTableView>;
  shown: number;
  count: number;
  activeFilters: number;
  filtersOpen: boolean;
  onToggleFilters: () => void;
  onExport: () => void;
  toolbarActions: ReactNode;
}) {
  const [chooserOpen, setChooserOpen] = useState(false);
  return (
    <PageHeader
      title="Devices"
      summary={
        <>
          <span data-testid="device-count">
            {shown === count
              ? `${countFormat.format(count)} devices`
              : `${countFormat.format(shown)} of ${countFormat.format(count)} devices`}
          </span>
          <span className="dt-header__age">
            <TableAge live={table.live} />
            <RefreshButton query={table.table} />
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
          onClick={onToggleFilters}
        >
          <FilterIcon size={15} /> Filters
          {activeFilters > 0 && <span className="dt-count">{activeFilters}</span>}
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
            <ColumnChooser
              chosen={table.columnKeys}
              onChange={table.setColumns}
              onClose={() => setChooserOpen(false)}
            />
          )}
        </div>
        <Button size="sm" variant="secondary" onClick={onExport} disabled={shown === 0}>
          <DownloadIcon size={15} /> Export CSV
        </Button>
      </div>
    </PageHeader>
  );
}

/** The active filters in words while the editor is closed, each removable, and Clear all. */
export function FilterChips({
  chips,
  onRemove,
  onClear,
}: {
  chips: readonly { position: number; text: string }[];
  onRemove: (position: number) => void;
  onClear: () => void;
}) {
  if (chips.length === 0) return null;
  return (
    <ul className="dt-chips" aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.position} className="dt-chip">
          <span>{chip.text}</span>
          <button type="button" aria-label={`Remove filter ${chip.text}`} onClick={() => onRemove(chip.position)}>
            <CloseIcon size={13} />
          </button>
        </li>
      ))}
      <li>
        <button type="button" className="dt-link-button" onClick={onClear}>
          Clear all
        </button>
      </li>
    </ul>
  );
}

/** How many devices are selected, the bulk actions (`children`), their export and Clear selection. */
export function SelectionBar({
  count,
  onExport,
  onClear,
  children,
}: {
  count: number;
  onExport: () => void;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <div className="dt-selection" role="region" aria-label="Selection">
      <strong>{countFormat.format(count)} selected</strong>
      {children}
      <span className="dt-selection__spacer" />
      <Button size="sm" variant="secondary" onClick={onExport}>
        <DownloadIcon size={15} /> Export selected
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
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
