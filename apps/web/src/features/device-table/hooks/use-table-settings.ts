import { useCallback, useState } from 'react';
import type { DeviceFilter } from '@fieldlink/domain/device-filter';
import {
  browserStorage,
  readColumns,
  readFilters,
  readSort,
  writeColumns,
  writeFilters,
  writeSort,
} from '../model/table-settings';
import type { TableSort } from '../model/table-view';

/** The table's filters, columns and sort, read from local storage once and written on each change. */
export function useTableSettings() {
  const [filters, setFiltersState] = useState<DeviceFilter[]>(() => readFilters(browserStorage()));
  const [columns, setColumnsState] = useState<string[]>(() => readColumns(browserStorage()));
  const [sort, setSortState] = useState<TableSort | null>(() => readSort(browserStorage()));

  const setFilters = useCallback((next: DeviceFilter[]) => {
    setFiltersState(next);
    writeFilters(browserStorage(), next);
  }, []);
  const setColumns = useCallback((next: string[]) => {
    setColumnsState(next);
    writeColumns(browserStorage(), next);
  }, []);
  const setSort = useCallback((next: TableSort | null) => {
    setSortState(next);
    writeSort(browserStorage(), next);
  }, []);
  return { filters, setFilters, columns, setColumns, sort, setSort };
}
