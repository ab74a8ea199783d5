import {
  compileDeviceFilters,
  passingRows,
  type CompiledDeviceFilter,
  type DeviceFilter,
  type FilterSource,
} from '@fieldlink/domain/device-filter';
import type { CellValue, SortDirection } from '@fieldlink/domain/device-sort';
import { ColumnOrderBuild, type ColumnOrder, type MoreTime } from './column-order';
import { COLUMN_PRESENTATIONS, type ColumnContext } from './columns';
import type { DeviceTableData } from './table-data';

/** The table's sort: a column and a direction. */
export interface TableSort {
  key: string;
  direction: SortDirection;
}

/** What the table shows: the rows in order, and what the filters decided. */
export interface TableView {
  /** Row indices into the data, in shown order. */
  rows: Int32Array;
  filter: CompiledDeviceFilter;
  context: ColumnContext;
}

/** Rows read per slice when a column's cells are read in idle time. */
const CELL_SLICE = 16_384;

const contextKey = (context: ColumnContext): string =>
  context.distanceFrom
    ? `${context.distanceFrom.centre.lat},${context.distanceFrom.centre.lng},${context.distanceFrom.unit}`
    : '';

const indexes = new WeakMap<DeviceTableData, TableIndex>();

/**
 * The index of a table, kept as long as the table itself: leaving the page and coming back, or a
 * refresh that answers 304, keeps every order already built.
 */
export function tableIndexOf(data: DeviceTableData): TableIndex {
  let index = indexes.get(data);
  if (!index) {
    index = new TableIndex(data);
    indexes.set(data, index);
  }
  return index;
}

/**
 * Sort and filter over one decoded table, with what is worth keeping between interactions: each
 * column's cells, and each column's sorted order, computed once. A later sort by the same column, in
 * either direction, and any filter change then cost one pass over the rows (O(n)), not a sort.
 */
export class TableIndex {
  private readonly cellCache = new Map<string, CellValue[]>();
  private readonly orderCache = new Map<string, ColumnOrder>();
  /** Orders being built in idle time, by column. */
  private readonly builds = new Map<string, ColumnOrderBuild>();
  private nameOrderOffered = false;

  constructor(readonly data: DeviceTableData) {}

  /** The cells of a column, computed once per column (and geo centre, for the distance column). */
  cells(key: string, context: ColumnContext): CellValue[] {
    const cacheKey = key === 'distance' ? `${key}@${contextKey(context)}` : key;
    let cells = this.cellCache.get(cacheKey);
    if (!cells) {
      const column = COLUMN_PRESENTATIONS.get(key);
      cells = new Array<CellValue>(this.data.count);
      for (let row = 0; row < this.data.count; row += 1)
        cells[row] = column ? column.read(this.data, row, context) : null;
      this.cellCache.set(cacheKey, cells);
    }
    return cells;
  }

  private natural: Int32Array | null = null;

  /** Rows in the order the server sent them (by id), for a table without a sort. */
  naturalOrder(): Int32Array {
    this.natural ??= Int32Array.from({ length: this.data.count }, (_, row) => row);
    return this.natural;
  }

  /** The filters' view of the rows. */
  filterSource(context: ColumnContext): FilterSource {
    const { data } = this;
    return {
      column: (attribute) => {
        if (!COLUMN_PRESENTATIONS.has(attribute)) return undefined;
        const cells = this.cells(attribute, context);
        return (row) => cells[row];
      },
      groupPath: (row) => data.groups[data.numbers.group[row]!]?.path ?? '',
      inNewGroup: (row) => data.groupIsNew[data.numbers.group[row]!] ?? false,
      alarmBits: (row) => {
        const mask = data.numbers.statusSp[row]!;
        return Number.isNaN(mask) ? 0 : mask;
      },
      activeAlarms: (row) => data.text.activeAlarms[row] ?? null,
      location: (row) => {
        const [lat, lng] = [data.numbers.lat[row]!, data.numbers.lng[row]!];
        return Number.isNaN(lat) || Number.isNaN(lng) ? null : { lat, lng };
      },
    };
  }

  /** All rows in ascending order of a column, empty values last: built now if not built yet. */
  private ascending(key: string, context: ColumnContext): ColumnOrder {
    const cacheKey = key === 'distance' ? `${key}@${contextKey(context)}` : key;
    const cached = this.orderCache.get(cacheKey);
    if (cached) return cached;
    // A build begun in idle time is finished, not started again.
    const build = this.builds.get(cacheKey) ?? this.startBuild(key, context, true);
    const order = build.run()!;
    this.finishBuild(cacheKey, order);
    return order;
  }

  private startBuild(key: string, context: ColumnContext, keepCells: boolean): ColumnOrderBuild {
    const cacheKey = key === 'distance' ? `${key}@${contextKey(context)}` : key;
    const type = COLUMN_PRESENTATIONS.get(key)?.type ?? 'string';
    // The server's order by name is offered to the first build by name only: names written since
    // (live changes) would most likely fail its check.
    const given = key === 'name' && !this.nameOrderOffered ? (this.data.nameOrder ?? undefined) : undefined;
    if (key === 'name') this.nameOrderOffered = true;
    const build = new ColumnOrderBuild(type, () => this.readCells(key, context, keepCells), given);
    this.builds.set(cacheKey, build);
    return build;
  }

  private finishBuild(cacheKey: string, order: ColumnOrder): void {
    this.builds.delete(cacheKey);
    this.orderCache.set(cacheKey, order);
  }

  /** A column's cells, read a slice at a time; kept for later (filters, export) when `keep`. */
  private *readCells(key: string, context: ColumnContext, keep: boolean): Generator<void, readonly CellValue[]> {
    const cacheKey = key === 'distance' ? `${key}@${contextKey(context)}` : key;
    const cached = this.cellCache.get(cacheKey);
    if (cached) return cached;
    const column = COLUMN_PRESENTATIONS.get(key);
    const count = this.data.count;
    const cells = new Array<CellValue>(count);
    for (let from = 0; from < count; from += CELL_SLICE) {
      for (let row = from; row < Math.min(count, from + CELL_SLICE); row += 1)
        cells[row] = column ? column.read(this.data, row, context) : null;
      yield;
    }
    // Read meanwhile by a filter: keep the one already cached.
    const readMeanwhile = this.cellCache.get(cacheKey);
    if (readMeanwhile) return readMeanwhile;
    if (keep) this.cellCache.set(cacheKey, cells);
    return cells;
  }

  /**
   * Lets go of what was read of these columns (their cells and sorted orders), after live changes
   * wrote new values into them: the next sort or filter by them reads them afresh. The rows shown
   * keep their place until then.
   */
  forget(keys: Iterable<string>): void {
    for (const key of keys) {
      this.cellCache.delete(key);
      this.orderCache.delete(key);
      this.builds.delete(key);
    }
  }

  /** True when the ascending order of a column is built (a sort by it costs one pass). */
  hasOrder(key: string): boolean {
    return this.orderCache.has(key);
  }

  /**
   * Builds a column's order ahead of need, in idle time: works while `more` answers true and answers
   * true once the order is built; called again, it carries on where it stopped. The cells read for it
   * are let go unless the column is shown (they are read again if it is filtered on or exported).
   */
  prepareOrder(key: string, keepCells = true, more: MoreTime = () => true): boolean {
    if (key === 'distance' || this.orderCache.has(key)) return true;
    const build = this.builds.get(key) ?? this.startBuild(key, { distanceFrom: null }, keepCells);
    const order = build.run(more);
    if (order) this.finishBuild(key, order);
    return order !== null;
  }

  /** All rows in the order of a sort: empty values last in either direction, ties in row order. */
  order(sort: TableSort, context: ColumnContext): Int32Array {
    const ascending = this.ascending(sort.key, context);
    if (sort.direction === 'asc') return ascending.rows;
    const { rows, filled, runStarts } = ascending;
    const result = new Int32Array(rows.length);
    let out = 0;
    // Runs of equal keys in reverse, each run kept in row order.
    for (let end = filled; end > 0;) {
      let start = end - 1;
      while (start > 0 && runStarts[start] === 0) start -= 1;
      for (let i = start; i < end; i += 1) result[out++] = rows[i]!;
      end = start;
    }
    result.set(rows.subarray(filled), out);
    return result;
  }

  /** The view of the table: filtered, sorted, cut at the LIMIT. */
  view(filters: readonly DeviceFilter[], sort: TableSort | null): TableView {
    const probe = compileDeviceFilters(filters, EMPTY_SOURCE);
    const context: ColumnContext = { distanceFrom: probe.distanceFrom };
    const filter = compileDeviceFilters(filters, this.filterSource(context));
    const order = sort ? this.order(sort, context) : this.naturalOrder();
    // Without filters the order is the view; the cached arrays are shared, and never written to.
    if (filter.active.length === 0) return { rows: order, filter, context };
    return { rows: passingRows(filter, order), filter, context };
  }
}

/** A source with no rows, to read the filters' distance centre before the real source exists. */
const EMPTY_SOURCE: FilterSource = {
  column: () => undefined,
  groupPath: () => '',
  inNewGroup: () => false,
  alarmBits: () => 0,
  location: () => null,
};
