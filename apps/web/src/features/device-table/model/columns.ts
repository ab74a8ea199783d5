import type { DeviceTableNumberField, DeviceTableTextField } from '@fieldlink/api/device-table';
import { DEVICE_COLUMNS, type DeviceColumn } from '@fieldlink/domain/device-columns';
import type { CellValue } from '@fieldlink/domain/device-sort';
import type { CsvValue } from '@fieldlink/domain/csv';
import { describeDiagnostic } from '@fieldlink/domain/diagnostics';
import { distanceIn, formatDistance, type DistanceUnit, type GeoPoint } from '@fieldlink/domain/geo';
import { hasNoCustomMacro } from '@fieldlink/domain/macro';
import { planLabel } from '@fieldlink/domain/device-panel';
import { alarmCellText } from '@fieldlink/domain/alarms';
import { utcOffsetMinutes } from '@fieldlink/domain/time-zone';
import { isOtaState, otaColumns, type OtaColumns } from '@fieldlink/domain/ota';
import { formatDateTime, SPEC_CLOCK_FORMAT, type Clock } from '@fieldlink/domain/date-format';
import type { DeviceTableData } from './table-data';

/** What a column's values depend on beyond the row: the geo filter's centre for the distance column. */
export interface ColumnContext {
  distanceFrom: { centre: GeoPoint; unit: DistanceUnit } | null;
}

/** How the table reads, shows and exports one column of §2. */
export interface ColumnPresentation extends DeviceColumn {
  /** Width in pixels. */
  width: number;
  align: 'start' | 'end';
  read(data: DeviceTableData, row: number, context: ColumnContext): CellValue;
  /** The cell as text on screen, dates in the reader's clock; empty values show as an empty string. */
  format(value: CellValue, clock: Clock): string;
  /** The cell in the CSV export: numbers stay numbers, dates are ISO 8601. */
  exportValue(value: CellValue): CsvValue;
}

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const coordinateFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 6, maximumFractionDigits: 6 });

const isNumber = (value: CellValue): value is number => typeof value === 'number' && !Number.isNaN(value);
const nullable = (value: number): number | null => (Number.isNaN(value) ? null : value);

/** The OTA columns of a row, by the domain's rule. */
function otaColumnsOf(data: DeviceTableData, row: number): OtaColumns {
  const state = data.text.otaState[row];
  return otaColumns({
    state: isOtaState(state) ? state : null,
    percent: nullable(data.numbers.otaPercent[row]!),
    otaPendingSubmittedAt: nullable(data.numbers.otaPendingSubmittedAt[row]!),
    pendingMessages: nullable(data.numbers.pendingMessages[row]!) ?? 0,
  });
}

const text =
  (field: DeviceTableTextField) =>
  (data: DeviceTableData, row: number): CellValue =>
    data.text[field][row];
const number =
  (field: DeviceTableNumberField) =>
  (data: DeviceTableData, row: number): CellValue =>
    nullable(data.numbers[field][row]!);
const flag =
  (field: DeviceTableNumberField) =>
  (data: DeviceTableData, row: number): CellValue => {
    const value = data.numbers[field][row]!;
    return Number.isNaN(value) ? null : value === 1;
  };

/** UTC offsets of a zone now, remembered per zone: a fleet shares a handful of zones. */
const offsetCache = new Map<string, string | null>();
export function utcOffsetText(tzName: string, now = Date.now()): string | null {
  const key = `${tzName}@${Math.floor(now / 3_600_000)}`;
  if (!offsetCache.has(key)) {
    let offset: string | null;
    try {
      const minutes = utcOffsetMinutes(tzName, now);
      const sign = minutes < 0 ? '-' : '+';
      const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
      offset = `UTC${sign}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
    } catch {
      offset = null;
    }
    offsetCache.set(key, offset);
  }
  return offsetCache.get(key) ?? null;
}

type Reader = ColumnPresentation['read'];

const READERS: Record<string, Reader> = {
  name: text('name'),
  id: text('id'),
  thingName: text('thingName'),
  isConnected: flag('isConnected'),
  site: text('site'),
  lastConnection: number('lastConnection'),
  lastDisconnection: number('lastDisconnection'),
  plan: (data, row) => planLabel(data.text.plan[row]),
  sn: text('sn'),
  fw: text('fw'),
  model: text('model'),
  macros: (data, row) => {
    const custom = data.text.custom[row];
    return { base: data.text.base[row] ?? null, custom: hasNoCustomMacro(custom) ? null : (custom ?? null) };
  },
  channelCount: number('channelCount'),
  address: text('address'),
  utcOffset: (data, row) => {
    const zone = data.text.tzName[row];
    return zone ? utcOffsetText(zone) : null;
  },
  tzName: text('tzName'),
  lat: number('lat'),
  lng: number('lng'),
  espFw: text('espFw'),
  signal: number('signal'),
  cmd: text('cmd'),
  hwPlatform: text('hwPlatform'),
  updatePoint: text('updatePoint'),
  modemModel: text('modemModel'),
  iccid: text('iccid'),
  imei: text('imei'),
  band: text('band'),
  operator: text('operator'),
  netType: text('netType'),
  cellApn: text('cellApn'),
  networkInterface: text('networkInterface'),
  signalQuality: number('signalQuality'),
  cpuTemp: number('cpuTemp'),
  resets: number('resets'),
  port1Resets: number('port1Resets'),
  networkConnects: number('networkConnects'),
  mqttConnects: number('mqttConnects'),
  healthTime: number('healthTime'),
  supplyVoltage: number('supplyVoltage'),
  groupPath: (data, row) => data.groupPathNames[data.numbers.group[row]!] ?? null,
  custom: text('custom'),
  base: text('base'),
  otaStatus: (data, row) => otaColumnsOf(data, row).otaStatus,
  alarm: (data, row) => alarmCellText(data.text.activeAlarms[row], nullable(data.numbers.statusSp[row]!)) || null,
  createdAt: number('createdAt'),
  distance: (data, row, context) => {
    if (!context.distanceFrom) return null;
    const [lat, lng] = [data.numbers.lat[row]!, data.numbers.lng[row]!];
    if (Number.isNaN(lat) || Number.isNaN(lng)) return null;
    return distanceIn(context.distanceFrom.centre, { lat, lng }, context.distanceFrom.unit);
  },
  muted: flag('muted'),
  updatePending: (data, row) => otaColumnsOf(data, row).updatePending,
  hasPendingUpdate: (data, row) => otaColumnsOf(data, row).hasPendingUpdate,
  error: number('errorStatus'),
};

const WIDTHS: Record<string, number> = {
  name: 240,
  id: 300,
  thingName: 160,
  isConnected: 210,
  site: 150,
  groupPath: 280,
  address: 260,
  macros: 220,
  custom: 160,
  base: 150,
  iccid: 200,
  imei: 170,
  sn: 150,
  model: 150,
  alarm: 170,
  error: 240,
  tzName: 170,
  operator: 120,
  cellApn: 160,
  otaStatus: 170,
  updatePending: 170,
  hasPendingUpdate: 190,
};

const DATE_WIDTH = 180;
const DEFAULT_WIDTH = 130;

function formatText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    return Object.values(value)
      .filter((part) => part !== null && part !== undefined && part !== '')
      .join(' · ');
  }
  return String(value);
}

const BOOLEAN_WORDS: Record<string, [string, string]> = { isConnected: ['Online', 'Offline'] };

function formatter(column: DeviceColumn): (value: CellValue, clock: Clock) => string {
  switch (column.key) {
    case 'lat':
    case 'lng':
      return (value) => (isNumber(value) ? coordinateFormat.format(value) : '');
    case 'distance':
      return (value) => (isNumber(value) ? formatDistance(value) : '');
    case 'error':
      return (value) => (isNumber(value) ? (value === 0 ? 'None' : describeDiagnostic(value)) : '');
  }
  switch (column.type) {
    case 'number':
      return (value) => (isNumber(value) ? numberFormat.format(value) : '');
    case 'dateTime':
      return (value, clock) => (isNumber(value) ? formatDateTime(value, clock) : '');
    case 'boolean': {
      const [yes, no] = BOOLEAN_WORDS[column.key] ?? ['Yes', 'No'];
      return (value) => (value === true ? yes : value === false ? no : '');
    }
    default:
      return formatText;
  }
}

function exporter(column: DeviceColumn, format: (value: CellValue) => string): (value: CellValue) => CsvValue {
  if (column.key === 'distance') return (value) => (isNumber(value) ? Number(formatDistance(value)) : null);
  if (column.key === 'error') return format;
  switch (column.type) {
    case 'number':
      return (value) => (isNumber(value) ? value : null);
    case 'dateTime':
      return (value) => (isNumber(value) ? new Date(value).toISOString() : null);
    default:
      return format;
  }
}

const UTC_CLOCK: Clock = { timeZone: 'UTC', ...SPEC_CLOCK_FORMAT };

/** Every column of §2 with how the table reads, shows and exports it, by key. */
export const COLUMN_PRESENTATIONS: ReadonlyMap<string, ColumnPresentation> = new Map(
  DEVICE_COLUMNS.map((column) => {
    const format = formatter(column);
    const presentation: ColumnPresentation = {
      ...column,
      width: WIDTHS[column.key] ?? (column.type === 'dateTime' ? DATE_WIDTH : DEFAULT_WIDTH),
      align: column.type === 'number' && column.key !== 'error' ? 'end' : 'start',
      read: READERS[column.key] ?? (() => null),
      format,
      // Dates export as ISO 8601 (machine-readable, zone-free); no other column reads the clock.
      exportValue: exporter(column, (value) => format(value, UTC_CLOCK)),
    };
    return [column.key, presentation];
  }),
);

/** The presentations of the chosen columns, in the chosen order; unknown keys are skipped. */
export function presentationsOf(keys: readonly string[]): ColumnPresentation[] {
  return keys.map((key) => COLUMN_PRESENTATIONS.get(key)).filter((column) => column !== undefined);
}
