import { DEVICE_FILTER_STORAGE_KEY, parseStoredFilters, type DeviceFilter } from '@fieldlink/domain/device-filter';
import { DEFAULT_COLUMN_KEYS, deviceColumn, normaliseColumnChoice } from '@fieldlink/domain/device-columns';
import type { TableSort } from './table-view';

/**
 * What the device table keeps in local storage: the filter under the specification's key
 * `deviceFilter` (§2, §9), and the column choice and sort under keys of our own, so all three
 * survive a reload. Reading never throws: a value this console cannot read is replaced by the default.
 */

/** Key of the chosen columns (not in the specification, which does not say where they are kept). */
export const COLUMNS_STORAGE_KEY = 'deviceTableColumns';
/** Key of the chosen sort. */
export const SORT_STORAGE_KEY = 'deviceTableSort';

/** The storage the settings live in (window.localStorage in the browser). */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem'>;

function readJson(storage: SettingsStorage | null, key: string): unknown {
  try {
    const text = storage?.getItem(key);
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

function writeJson(storage: SettingsStorage | null, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or blocked (private mode): the setting lasts for this page only.
  }
}

export const DEFAULT_SORT: TableSort = { key: 'name', direction: 'asc' };

export function readFilters(storage: SettingsStorage | null): DeviceFilter[] {
  return parseStoredFilters(readJson(storage, DEVICE_FILTER_STORAGE_KEY));
}

export function writeFilters(storage: SettingsStorage | null, filters: readonly DeviceFilter[]): void {
  writeJson(storage, DEVICE_FILTER_STORAGE_KEY, filters);
}

export function readColumns(storage: SettingsStorage | null): string[] {
  const stored = readJson(storage, COLUMNS_STORAGE_KEY);
  return stored === null ? [...DEFAULT_COLUMN_KEYS] : normaliseColumnChoice(stored);
}

export function writeColumns(storage: SettingsStorage | null, keys: readonly string[]): void {
  writeJson(storage, COLUMNS_STORAGE_KEY, keys);
}

export function readSort(storage: SettingsStorage | null): TableSort | null {
  const stored = readJson(storage, SORT_STORAGE_KEY);
  if (stored === null) return DEFAULT_SORT;
  if (typeof stored !== 'object' || Array.isArray(stored)) return DEFAULT_SORT;
  const { key, direction } = stored as Record<string, unknown>;
  if (key === undefined && direction === undefined) return null;
  if (typeof key !== 'string' || !deviceColumn(key) || (direction !== 'asc' && direction !== 'desc')) {
    return DEFAULT_SORT;
  }
  return { key, direction };
}

export function writeSort(storage: SettingsStorage | null, sort: TableSort | null): void {
  writeJson(storage, SORT_STORAGE_KEY, sort ?? {});
}

/** The browser's local storage, or null where it cannot be reached (blocked cookies, tests). */
export function browserStorage(): SettingsStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The next sort when a column header is clicked: ascending, then descending, then ascending again. */
export function nextSort(current: TableSort | null, key: string): TableSort {
  if (current?.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}
