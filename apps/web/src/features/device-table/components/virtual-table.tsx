import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import type { Clock } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import type { ColumnContext, ColumnPresentation } from '../model/columns';
import type { DeviceTableData } from '../model/table-data';
import type { TableSort } from '../model/table-view';
import { ArrowDownIcon, ArrowUpIcon, SortableIcon } from './table-icons';

/** Height of every row, header included: fixed, so a row's position is its index times this. */
export const ROW_HEIGHT = 40;
/**
 * Height of a row drawn as a card on a phone: the name and connection on the first line, the next
 * three chosen columns, labelled, a line each beneath (fixed too, so the list stays virtual).
 */
export const CARD_ROW_HEIGHT = 112;
/** Rows drawn beyond each edge of the viewport, so a quick scroll does not show blank space. */
export const OVERSCAN = 6;
const SELECT_COLUMN_WIDTH = 44;

export interface VirtualTableProps {
  data: DeviceTableData;
  /** Row indices in shown order. */
  rows: Int32Array;
  columns: readonly ColumnPresentation[];
  context: ColumnContext;
  sort: TableSort | null;
  onSort: (key: string) => void;
  selected: ReadonlySet<string>;
  onToggleRow: (id: string) => void;
  onToggleAll: () => void;
  height: number;
  /** True while the rows shown lag behind the sort or filters asked for. */
  busy: boolean;
  /** Changes when the order or the filters change: the table then scrolls back to the top. */
  scrollResetKey: string;
}

/** The first and last (exclusive) positions to draw for a scroll offset. */
export function visibleRange(
  scrollTop: number,
  viewport: number,
  total: number,
  rowHeight = ROW_HEIGHT,
): [number, number] {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(total, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN);
  return [first, Math.max(first, last)];
}

/**
 * The device table: a fixed-row-height virtual list inside one scrolling element (the header sticks
 * to its top and scrolls sideways with the rows). Only the rows in view plus a few either side are in
 * the DOM, so 100,000 devices cost what 40 do; rows that stay in view are not drawn again while
 * scrolling, because a row's props do not change as it moves.
 */
export function VirtualTable({
  data,
  rows,
  columns,
  context,
  sort,
  onSort,
  selected,
  onToggleRow,
  onToggleAll,
  height,
  busy,
  scrollResetKey,
}: VirtualTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // On a phone each row is a card of the chosen columns instead of a row a thousand pixels wide.
  const cards = useMediaQuery(PHONE_QUERY);
  const rowHeight = cards ? CARD_ROW_HEIGHT : ROW_HEIGHT;
  const [scrollTop, setScrollTop] = useState(0);
  const frame = useRef(0);
  const template = useMemo(
    () => `${SELECT_COLUMN_WIDTH}px ${columns.map((column) => `${column.width}px`).join(' ')}`,
    [columns],
  );
  const width = SELECT_COLUMN_WIDTH + columns.reduce((sum, column) => sum + column.width, 0);
  const viewport = Math.max(0, height - ROW_HEIGHT);
  const [first, last] = visibleRange(scrollTop, viewport, rows.length, rowHeight);

  // A new filter or sort shows the top of the new order; a refresh of the data keeps the place.
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
  }, [scrollResetKey]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const onScroll = useCallback(() => {
    cancelAnimationFrame(frame.current);
    // One state update per frame at most; the browser scrolls the drawn rows meanwhile.
    frame.current = requestAnimationFrame(() => setScrollTop(scroller.current?.scrollTop ?? 0));
  }, []);

  const selectedShown = useMemo(() => {
    if (selected.size === 0) return 0;
    let count = 0;
    for (const row of rows) if (selected.has(data.text.id[row] ?? '')) count += 1;
    return count;
  }, [rows, selected, data]);

  const drawn = [];
  for (let position = first; position < last; position += 1) {
    const row = rows[position]!;
    const id = data.text.id[row] ?? '';
    drawn.push(
      <TableRow
        key={id}
        data={data}
        row={row}
        position={position}
        columns={columns}
        context={context}
        selected={selected.has(id)}
        onToggle={onToggleRow}
        rowHeight={rowHeight}
        revision={data.revision[row] ?? 0}
      />,
    );
  }

  const style = (cards ? {} : { '--dt-columns': template, width }) as CSSProperties;
  return (
    <div
      ref={scroller}
      className={`dt-scroller${busy ? ' is-busy' : ''}${cards ? ' is-cards' : ''}`}
      style={{ height }}
      aria-busy={busy}
      onScroll={onScroll}
      role="table"
      aria-label="Devices"
      aria-rowcount={rows.length + 1}
      data-row-count={rows.length}
      data-testid="device-table"
    >
      <div className="dt-grid" style={style}>
        <div className="dt-head" role="row" aria-rowindex={1}>
          <div className="dt-cell dt-cell--select" role="columnheader">
            <input
              type="checkbox"
              aria-label="Select all shown devices"
              checked={rows.length > 0 && selectedShown === rows.length}
              ref={(input) => {
                if (input) input.indeterminate = selectedShown > 0 && selectedShown < rows.length;
              }}
              onChange={onToggleAll}
            />
          </div>
          {columns.map((column) => {
            const active = sort?.key === column.key ? sort.direction : null;
            return (
              <div
                key={column.key}
                className={`dt-cell dt-head__cell${column.align === 'end' ? ' dt-cell--end' : ''}${active ? ' is-sorted' : ''}`}
                role="columnheader"
                aria-sort={active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none'}
              >
                <button
                  type="button"
                  className="dt-sort"
                  onClick={() => onSort(column.key)}
                  title={`Sort by ${column.label}`}
                >
                  <span className="dt-sort__label">{column.label}</span>
                  <span className="dt-sort__icon" aria-hidden="true">
                    {active === 'asc' ? (
                      <ArrowUpIcon size={14} />
                    ) : active === 'desc' ? (
                      <ArrowDownIcon size={14} />
                    ) : (
                      <SortableIcon size={14} />
                    )}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
        <div className="dt-body" style={{ height: rows.length * rowHeight }} role="rowgroup">
          {drawn}
        </div>
      </div>
    </div>
  );
}

interface TableRowProps {
  data: DeviceTableData;
  row: number;
  position: number;
  columns: readonly ColumnPresentation[];
  context: ColumnContext;
  selected: boolean;
  onToggle: (id: string) => void;
  rowHeight: number;
  /** The row's live revision: a new one draws the row again (its data object stays the same). */
  revision: number;
}

const TableRow = memo(function TableRow({
  data,
  row,
  position,
  columns,
  context,
  selected,
  onToggle,
  rowHeight,
}: TableRowProps) {
  const id = data.text.id[row] ?? '';
  const name = data.text.name[row] ?? '';
  const clock = usePageClock();
  return (
    <div
      className={`dt-row${selected ? ' is-selected' : ''}${position % 2 === 1 ? ' is-odd' : ''}`}
      style={{ transform: `translateY(${position * rowHeight}px)` }}
      role="row"
      aria-rowindex={position + 2}
      aria-selected={selected}
    >
      <div className="dt-cell dt-cell--select" role="cell">
        <input type="checkbox" aria-label={`Select ${name}`} checked={selected} onChange={() => onToggle(id)} />
      </div>
      {columns.map((column) => (
        <TableCell key={column.key} column={column} data={data} row={row} context={context} clock={clock} />
      ))}
    </div>
  );
});

function TableCell({
  column,
  data,
  row,
  context,
  clock,
}: {
  column: ColumnPresentation;
  data: DeviceTableData;
  row: number;
  context: ColumnContext;
  clock: Clock;
}) {
  const value = column.read(data, row, context);
  const text = column.format(value, clock);
  const className = `dt-cell dt-cell--${column.key}${column.align === 'end' ? ' dt-cell--end' : ''}`;
  const label = column.label;
  if (column.key === 'name') {
    const thingName = data.text.thingName[row];
    return (
      <div className={`${className} dt-cell--name`} role="cell" data-label={label}>
        {thingName ? (
          <Link to={`/dash/${encodeURIComponent(thingName)}`} className="dt-link" title={text}>
            {text}
          </Link>
        ) : (
          text
        )}
      </div>
    );
  }
  if (column.key === 'isConnected' && typeof value === 'boolean') {
    return (
      <div className={className} role="cell" data-label={label}>
        <span className={`dt-status ${value ? 'is-online' : 'is-offline'}`}>
          <span className="dt-status__dot" aria-hidden="true" />
          {text}
        </span>
      </div>
    );
  }
  if (column.key === 'alarm' && text) {
    return (
      <div className={className} role="cell" title={text} data-label={label}>
        <span className="dt-pill dt-pill--danger">{text}</span>
      </div>
    );
  }
  if (column.key === 'otaStatus' && text) {
    // The state's colour by its name (`is-downloading`, `is-failed`), the download as a bar under it.
    const state = data.text.otaState[row]?.toLowerCase() ?? 'pending';
    const percent = data.numbers.otaPercent[row]!;
    return (
      <div className={`${className} dt-ota is-${state}`} role="cell" title={text} data-label={label}>
        <span className="dt-ota__text">{text}</span>
        {state === 'downloading' && !Number.isNaN(percent) && (
          <span
            className="dt-ota__bar"
            role="progressbar"
            aria-label={text}
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <span style={{ width: `${percent}%` }} />
          </span>
        )}
      </div>
    );
  }
  if (column.key === 'plan' && text) {
    return (
      <div className={className} role="cell" data-label={label}>
        <span className={`dt-pill ${text === 'Premium' ? 'dt-pill--accent' : 'dt-pill--neutral'}`}>{text}</span>
      </div>
    );
  }
  if (column.key === 'groupPath' && text) {
    // Long paths lose their top, not their end: the group a device is in is the part that matters.
    return (
      <div className={`${className} dt-cell--path`} role="cell" title={text} data-label={label}>
        <bdi>{text}</bdi>
      </div>
    );
  }
  return (
    <div className={className} role="cell" title={text || undefined} data-label={label}>
      {text === '' ? <span className="dt-empty">—</span> : text}
    </div>
  );
}
