import { deviceColumn, type ColumnValueType } from './device-columns';
import { isEmptyCell, objectText, versionSortKey, compareSortKeys, type CellValue } from './device-sort';
import { distanceIn, DISTANCE_UNITS, isGeoPoint, type DistanceUnit, type GeoPoint } from './geo';
import { isUnderPath } from './group-path';
import { matchesAlarmChoice } from './alarms';

/**
 * Device table filters (specification core §3 Filter, §5 device filters; application §5). The
 * console, the CSV export and any server-side use all read filters through these functions.
 *
 * - A filter with an empty operator or a blank value is ignored, and so is one whose value cannot be
 *   read as its type (a number filter reading `abc`): an unreadable filter must not empty the table.
 * - Filters combine with AND, except GROUP filters with INCLUDE, which combine with OR among
 *   themselves: "include Cellar" and "include Brewhouse" shows both groups (docs/decisions.md).
 * - LIMIT is applied last, to the shown (sorted) order; with several, the smallest wins.
 */

export const FILTER_TYPES = ['ATTRIBUTE', 'GROUP', 'ALARM', 'LIMIT', 'GEO_DISTANCE'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/** Types an ATTRIBUTE filter compares by: §5's four, and date-time compared as instants. */
export const FILTER_ATTRIBUTE_TYPES = ['string', 'number', 'version', 'boolean', 'dateTime'] as const;
export type FilterAttributeType = (typeof FILTER_ATTRIBUTE_TYPES)[number];

export const STRING_OPERATORS = ['=', '!=', 'Contains', 'Not Contains', 'Begins With'] as const;
export const NUMBER_OPERATORS = ['=', '!=', '<=', '<', '>=', '>'] as const;
export const BOOLEAN_OPERATORS = ['=', '!='] as const;
export type StringOperator = (typeof STRING_OPERATORS)[number];
export type NumberOperator = (typeof NUMBER_OPERATORS)[number];

/** GROUP filter modes (§3), kept in the filter's `operator`. */
export const GROUP_MODES = ['INCLUDE', 'EXCLUDE', 'ONLY_NEW_GROUPS', 'EXCLUDE_ALL_NEW_GROUPS'] as const;
export type GroupMode = (typeof GROUP_MODES)[number];

/**
 * One filter as stored under the local-storage key `deviceFilter` (§3's fields). GROUP keeps its mode
 * in `operator` and the group id (or path) in `value`; GEO_DISTANCE its unit in `operator`, the
 * largest distance in `value` and the centre in `latitude`/`longitude`; LIMIT the count in `value`;
 * ALARM its choice in `selectedAlarm` (`ANY`, `NONE`, a channel alarm severity or a status alarm bit).
 */
export interface DeviceFilter {
  type: FilterType;
  attribute?: string;
  operator?: string;
  value?: string | number | boolean;
  attributeType?: FilterAttributeType;
  selectedAlarm?: string;
  latitude?: string | number;
  longitude?: string | number;
}

/** The key the chosen filter is kept under in local storage (§2, §9). */
export const DEVICE_FILTER_STORAGE_KEY = 'deviceFilter';

/** What the filters read of the table's rows, by row index; column readers are fetched once. */
export interface FilterSource {
  /** Reader of one column's cells, or undefined for a column the table does not have. */
  column(attribute: string): ((row: number) => CellValue) | undefined;
  /** The row's group path (`./root/g1/g2`). */
  groupPath(row: number): string;
  /** True when the row's device sits in a New Devices group. */
  inNewGroup(row: number): boolean;
  /** The row's `status.sp` alarm mask (0 when none). */
  alarmBits(row: number): number;
  /** The row's active channel alarms as `encodeActiveAlarms` writes them (alarms.ts); absent: none. */
  activeAlarms?(row: number): string | null;
  /** The row's location, or null when it has none. */
  location(row: number): GeoPoint | null;
}

/** The filter type that compares cells of a column of `type`. */
export function filterTypeOfColumn(type: ColumnValueType): FilterAttributeType {
  switch (type) {
    case 'number':
    case 'version':
    case 'boolean':
    case 'dateTime':
      return type;
    case 'string':
    case 'stringAndVersion':
    case 'object':
      return 'string';
  }
}

/** The operators an ATTRIBUTE filter of `type` offers. */
export function operatorsFor(type: FilterAttributeType): readonly string[] {
  switch (type) {
    case 'string':
      return STRING_OPERATORS;
    case 'boolean':
      return BOOLEAN_OPERATORS;
    default:
      return NUMBER_OPERATORS;
  }
}

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : String(value ?? '').trim());

/** A number as a filter reads it: plain decimal text (`1e3` and `0x10` too, as Number reads them). */
export function parseFilterNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (isBlank(value)) return null;
  const number = Number(text(value));
  return Number.isFinite(number) ? number : null;
}

/** A boolean as a filter reads it: true/false, yes/no, 1/0, on/off, online/offline. */
export function parseFilterBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const word = text(value).toLowerCase();
  if (['true', 'yes', '1', 'on', 'online'].includes(word)) return true;
  if (['false', 'no', '0', 'off', 'offline'].includes(word)) return false;
  return null;
}

/** An instant as a date-time filter reads it: unix milliseconds, or a date text `Date.parse` reads. */
export function parseFilterDate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (isBlank(value)) return null;
  const raw = text(value);
  const time = /^[0-9]{10,}$/.test(raw) ? Number(raw) : Date.parse(raw);
  return Number.isFinite(time) ? time : null;
}

/** The filter's attribute type: as stored, else from its column. */
export function attributeTypeOf(filter: DeviceFilter): FilterAttributeType | null {
  if (filter.attributeType && (FILTER_ATTRIBUTE_TYPES as readonly string[]).includes(filter.attributeType)) {
    return filter.attributeType;
  }
  const column = filter.attribute ? deviceColumn(filter.attribute) : undefined;
  return column ? filterTypeOfColumn(column.type) : null;
}

function geoCentre(filter: DeviceFilter): GeoPoint | null {
  const centre = { lat: parseFilterNumber(filter.latitude), lng: parseFilterNumber(filter.longitude) };
  return isGeoPoint(centre) ? centre : null;
}

/**
 * True when the filter takes part: its type's fields are filled in and readable. §5: a filter with
 * an empty operator or a blank value is ignored. GROUP's "only new groups" and "exclude all new
 * groups" name no group, so they need no value; ALARM's value is its selected alarm.
 */
export function isActiveFilter(filter: DeviceFilter): boolean {
  switch (filter.type) {
    case 'ATTRIBUTE': {
      const type = attributeTypeOf(filter);
      if (!type || isBlank(filter.attribute) || isBlank(filter.operator) || isBlank(filter.value)) return false;
      if (!operatorsFor(type).includes(text(filter.operator))) return false;
      if (type === 'number') return parseFilterNumber(filter.value) !== null;
      if (type === 'dateTime') return parseFilterDate(filter.value) !== null;
      if (type === 'boolean') return parseFilterBoolean(filter.value) !== null;
      return true;
    }
    case 'GROUP': {
      const mode = text(filter.operator);
      if (mode === 'ONLY_NEW_GROUPS' || mode === 'EXCLUDE_ALL_NEW_GROUPS') return true;
      return (mode === 'INCLUDE' || mode === 'EXCLUDE') && !isBlank(filter.value);
    }
    case 'ALARM':
      return !isBlank(filter.selectedAlarm ?? filter.value);
    case 'LIMIT': {
      const count = parseFilterNumber(filter.value);
      return count !== null && count >= 0;
    }
    case 'GEO_DISTANCE': {
      const distance = parseFilterNumber(filter.value);
      const unit = text(filter.operator);
      return (
        distance !== null &&
        distance >= 0 &&
        (DISTANCE_UNITS as readonly string[]).includes(unit) &&
        !!geoCentre(filter)
      );
    }
    default:
      return false;
  }
}

type CellTest = (cell: CellValue) => boolean;

function stringTest(operator: string, wanted: string): CellTest {
  const needle = wanted.toLowerCase();
  const read = (cell: CellValue): string | null => {
    if (isEmptyCell(cell)) return null;
    return (typeof cell === 'object' && cell !== null ? objectText(cell) : String(cell)).toLowerCase();
  };
  switch (operator as StringOperator) {
    case '=':
      return (cell) => read(cell) === needle;
    case '!=':
      return (cell) => read(cell) !== needle;
    case 'Contains':
      return (cell) => read(cell)?.includes(needle) ?? false;
    case 'Not Contains':
      return (cell) => !(read(cell)?.includes(needle) ?? false);
    case 'Begins With':
      return (cell) => read(cell)?.startsWith(needle) ?? false;
  }
}

/** Applies a number operator to an ordering (negative, zero, positive); empty cells: only `!=` holds. */
function orderTest<T>(operator: string, read: (cell: CellValue) => T | null, compare: (a: T) => number): CellTest {
  const holds: Record<NumberOperator, (order: number) => boolean> = {
    '=': (order) => order === 0,
    '!=': (order) => order !== 0,
    '<=': (order) => order <= 0,
    '<': (order) => order < 0,
    '>=': (order) => order >= 0,
    '>': (order) => order > 0,
  };
  const test = holds[operator as NumberOperator];
  return (cell) => {
    const value = read(cell);
    return value === null ? operator === '!=' : test(compare(value));
  };
}

const cellNumber = (cell: CellValue): number | null => {
  if (isEmptyCell(cell)) return null;
  return parseFilterNumber(typeof cell === 'boolean' ? Number(cell) : cell);
};

/** The test an active ATTRIBUTE filter applies to one cell. */
export function attributeTest(filter: DeviceFilter): CellTest {
  const type = attributeTypeOf(filter) ?? 'string';
  const operator = text(filter.operator);
  switch (type) {
    case 'string':
      return stringTest(operator, text(filter.value));
    case 'number': {
      const wanted = parseFilterNumber(filter.value) ?? Number.NaN;
      return orderTest(operator, cellNumber, (value) => value - wanted);
    }
    case 'dateTime': {
      const wanted = parseFilterDate(filter.value) ?? Number.NaN;
      return orderTest(
        operator,
        (cell) => (isEmptyCell(cell) ? null : parseFilterDate(cell)),
        (value) => value - wanted,
      );
    }
    case 'version': {
      const wanted = versionSortKey(text(filter.value));
      const test = orderTest(
        operator,
        (cell) => (isEmptyCell(cell) ? null : versionSortKey(String(cell))),
        (value) => compareSortKeys(value, wanted),
      );
      // A fleet runs few firmware versions: remembering each version's answer saves parsing it per row.
      const answers = new Map<string, boolean>();
      return (cell) => {
        if (typeof cell !== 'string') return test(cell);
        let answer = answers.get(cell);
        if (answer === undefined) {
          answer = test(cell);
          if (answers.size < 10_000) answers.set(cell, answer);
        }
        return answer;
      };
    }
    case 'boolean': {
      const wanted = parseFilterBoolean(filter.value);
      // A boolean column without a value reads as false: "not muted", "no update pending".
      const read = (cell: CellValue) => (isEmptyCell(cell) ? false : parseFilterBoolean(cell) === true);
      return operator === '!=' ? (cell) => read(cell) !== wanted : (cell) => read(cell) === wanted;
    }
  }
}

/** True when the group path lies under the group named by `value`: a group id, or a group path. */
export function pathUnderGroup(path: string, group: string): boolean {
  const wanted = group.trim();
  if (wanted.startsWith('./')) return isUnderPath(path, wanted);
  return `/${path}/`.includes(`/${wanted}/`);
}

/** The filters compiled for one table: row test, limit, and the distance reference. */
export interface CompiledDeviceFilter {
  /** The filters that take part, in their order. */
  active: DeviceFilter[];
  /** True when the row passes every active filter but LIMIT. */
  test(row: number): boolean;
  /** The smallest active LIMIT, or null for none. */
  limit: number | null;
  /** Centre and unit of the first active GEO_DISTANCE filter: the geo-distance column measures from it. */
  distanceFrom: { centre: GeoPoint; unit: DistanceUnit } | null;
}

type RowTest = (row: number) => boolean;

/** Compiles the filters once (values parsed, text folded), so testing a row is cheap. */
export function compileDeviceFilters(filters: readonly DeviceFilter[], source: FilterSource): CompiledDeviceFilter {
  const active = filters.filter(isActiveFilter);
  const tests: RowTest[] = [];
  const includes: string[] = [];
  let limit: number | null = null;
  let distanceFrom: CompiledDeviceFilter['distanceFrom'] = null;
  for (const filter of active) {
    switch (filter.type) {
      case 'ATTRIBUTE': {
        const column = source.column(text(filter.attribute));
        const test = attributeTest(filter);
        // A column this table does not have has no values: each row reads as empty.
        tests.push(column ? (row) => test(column(row)) : () => test(null));
        break;
      }
      case 'GROUP': {
        const mode = text(filter.operator) as GroupMode;
        const group = text(filter.value);
        if (mode === 'INCLUDE') includes.push(group);
        else if (mode === 'EXCLUDE') tests.push((row) => !pathUnderGroup(source.groupPath(row), group));
        else if (mode === 'ONLY_NEW_GROUPS') tests.push((row) => source.inNewGroup(row));
        else tests.push((row) => !source.inNewGroup(row));
        break;
      }
      case 'ALARM': {
        const selected = text(filter.selectedAlarm ?? filter.value);
        tests.push((row) => matchesAlarmChoice(source.alarmBits(row), source.activeAlarms?.(row), selected));
        break;
      }
      case 'LIMIT': {
        const count = Math.floor(parseFilterNumber(filter.value)!);
        limit = limit === null ? count : Math.min(limit, count);
        break;
      }
      case 'GEO_DISTANCE': {
        const centre = geoCentre(filter)!;
        const unit = text(filter.operator) as DistanceUnit;
        const largest = parseFilterNumber(filter.value)!;
        distanceFrom ??= { centre, unit };
        tests.push((row) => {
          const location = source.location(row);
          return location !== null && distanceIn(centre, location, unit) <= largest;
        });
        break;
      }
    }
  }
  if (includes.length > 0) {
    tests.unshift((row) => {
      const path = source.groupPath(row);
      return includes.some((group) => pathUnderGroup(path, group));
    });
  }
  return {
    active,
    test: (row) => {
      for (const test of tests) if (!test(row)) return false;
      return true;
    },
    limit,
    distanceFrom,
  };
}

/** The rows of `order` that pass the compiled filters, in that order, cut at the LIMIT. */
export function passingRows(filter: CompiledDeviceFilter, order: ArrayLike<number>): Int32Array {
  const limit = filter.limit ?? Number.POSITIVE_INFINITY;
  const rows = new Int32Array(Math.min(order.length, limit));
  let shown = 0;
  for (let i = 0; i < order.length && shown < limit; i += 1) {
    const row = order[i]!;
    if (filter.test(row)) rows[shown++] = row;
  }
  return rows.subarray(0, shown);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const STORED_FIELDS = ['attribute', 'operator', 'attributeType', 'selectedAlarm'] as const;

/**
 * Filters read back from local storage: anything that is not a filter is dropped, so a value written
 * by an older console, another app or a person at the dev tools cannot break the table. A single
 * stored filter object is read as a list of one.
 */
export function parseStoredFilters(stored: unknown): DeviceFilter[] {
  const list = Array.isArray(stored) ? stored : isRecord(stored) ? [stored] : [];
  const filters: DeviceFilter[] = [];
  for (const entry of list) {
    if (!isRecord(entry) || !(FILTER_TYPES as readonly unknown[]).includes(entry.type)) continue;
    const filter: DeviceFilter = { type: entry.type as FilterType };
    for (const field of STORED_FIELDS) {
      if (typeof entry[field] === 'string') (filter as unknown as Record<string, string>)[field] = entry[field];
    }
    if (filter.attributeType && !(FILTER_ATTRIBUTE_TYPES as readonly string[]).includes(filter.attributeType)) {
      delete filter.attributeType;
    }
    for (const field of ['value', 'latitude', 'longitude'] as const) {
      const value = entry[field];
      if (typeof value === 'string' || typeof value === 'number' || (field === 'value' && typeof value === 'boolean')) {
        (filter as unknown as Record<string, unknown>)[field] = value;
      }
    }
    filters.push(filter);
  }
  return filters;
}
