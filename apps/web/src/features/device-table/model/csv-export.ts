import { toCsv, type CsvValue } from '@fieldlink/domain/csv';
import type { ColumnPresentation } from './columns';
import type { TableIndex, TableView } from './table-view';
import { fileDay } from '@fieldlink/domain/date-format';

/**
 * The CSV of the table as shown: the chosen columns, the filtered rows in their order (or only the
 * selected ones). Cells are neutralised against formula injection by the domain's writer.
 */
export function tableCsv(
  index: TableIndex,
  view: TableView,
  columns: readonly ColumnPresentation[],
  onlyIds?: ReadonlySet<string>,
): string {
  const cells = columns.map((column) => index.cells(column.key, view.context));
  const ids = index.data.text.id;
  const rows: CsvValue[][] = [];
  for (const row of view.rows) {
    if (onlyIds && !onlyIds.has(ids[row] ?? '')) continue;
    rows.push(columns.map((column, i) => column.exportValue(cells[i]![row])));
  }
  return toCsv(
    columns.map((column) => column.label),
    rows,
  );
}

/** Name of the downloaded file: `devices-2026-11-21.csv`, on the day the page's clock shows at `now`. */
export function csvFileName(now: number, timeZone: string): string {
  return `devices-${fileDay(now, timeZone)}.csv`;
}
