/**
 * Columns of the device table (specification core §2): three sets and the extra columns, each with
 * the value type that decides how it sorts, filters and shows.
 */

/** Value types of the specification. */
export const COLUMN_VALUE_TYPES = [
  'number',
  'string',
  'stringAndVersion',
  'version',
  'dateTime',
  'boolean',
  'object',
] as const;
export type ColumnValueType = (typeof COLUMN_VALUE_TYPES)[number];

/** The sets the column chooser groups columns in: (a), (b), (c) of §2 and the extra columns. */
export const COLUMN_SETS = ['device', 'healthAndCellular', 'groupsAndMacros', 'more'] as const;
export type ColumnSet = (typeof COLUMN_SETS)[number];

export const COLUMN_SET_LABELS: Readonly<Record<ColumnSet, string>> = {
  device: 'Device',
  healthAndCellular: 'Health and cellular',
  groupsAndMacros: 'Groups and macros',
  more: 'Alarms, dates and updates',
};

export interface DeviceColumn {
  /** Stable key, kept in the stored column choice and the filter's `attribute`. */
  key: string;
  label: string;
  set: ColumnSet;
  type: ColumnValueType;
}

const column = (key: string, label: string, set: ColumnSet, type: ColumnValueType): DeviceColumn => ({
  key,
  label,
  set,
  type,
});

/** Every column, in the order of §2. */
export const DEVICE_COLUMNS: readonly DeviceColumn[] = [
  column('name', 'Name', 'device', 'string'),
  column('id', 'ID', 'device', 'string'),
  column('thingName', 'Thing name', 'device', 'string'),
  column('isConnected', 'Connection status', 'device', 'boolean'),
  column('site', 'Site', 'device', 'string'),
  column('lastConnection', 'Last connection', 'device', 'dateTime'),
  column('lastDisconnection', 'Last disconnection', 'device', 'dateTime'),
  column('plan', 'Plan', 'device', 'string'),
  column('sn', 'Serial number', 'device', 'string'),
  column('fw', 'Firmware', 'device', 'version'),
  column('model', 'Model', 'device', 'string'),
  column('macros', 'Macros', 'device', 'object'),
  column('channelCount', 'Channel count', 'device', 'number'),
  column('address', 'Address', 'device', 'string'),
  column('utcOffset', 'UTC offset', 'device', 'string'),
  column('tzName', 'Time zone', 'device', 'string'),
  column('lat', 'Latitude', 'device', 'number'),
  column('lng', 'Longitude', 'device', 'number'),
  column('espFw', 'Module firmware', 'device', 'version'),
  column('signal', 'Signal strength', 'device', 'number'),

  column('cmd', 'Command version', 'healthAndCellular', 'version'),
  column('hwPlatform', 'Hardware platform', 'healthAndCellular', 'string'),
  column('updatePoint', 'Update point', 'healthAndCellular', 'string'),
  column('modemModel', 'Module type', 'healthAndCellular', 'string'),
  column('iccid', 'ICCID', 'healthAndCellular', 'string'),
  column('imei', 'IMEI', 'healthAndCellular', 'string'),
  column('band', 'Band', 'healthAndCellular', 'string'),
  column('operator', 'Operator', 'healthAndCellular', 'string'),
  column('netType', 'Network type', 'healthAndCellular', 'string'),
  column('cellApn', 'APN', 'healthAndCellular', 'string'),
  column('networkInterface', 'Network interface', 'healthAndCellular', 'string'),
  column('signalQuality', 'Signal quality', 'healthAndCellular', 'number'),
  column('cpuTemp', 'CPU temperature', 'healthAndCellular', 'number'),
  column('resets', 'Resets', 'healthAndCellular', 'number'),
  column('port1Resets', 'Port 1 resets', 'healthAndCellular', 'number'),
  column('networkConnects', 'Network connects', 'healthAndCellular', 'number'),
  column('mqttConnects', 'MQTT connects', 'healthAndCellular', 'number'),
  column('healthTime', 'Health update time', 'healthAndCellular', 'dateTime'),
  column('supplyVoltage', 'Supply voltage', 'healthAndCellular', 'number'),

  column('groupPath', 'Group path', 'groupsAndMacros', 'string'),
  column('custom', 'Custom macro', 'groupsAndMacros', 'stringAndVersion'),
  column('base', 'Base macro', 'groupsAndMacros', 'stringAndVersion'),
  column('otaStatus', 'OTA status', 'groupsAndMacros', 'string'),

  column('alarm', 'Alarm', 'more', 'string'),
  column('createdAt', 'Create date', 'more', 'dateTime'),
  column('distance', 'Geo distance', 'more', 'number'),
  column('muted', 'Mute disconnections', 'more', 'boolean'),
  column('updatePending', 'Update pending', 'more', 'boolean'),
  column('hasPendingUpdate', 'Has pending update', 'more', 'boolean'),
  column('error', 'Error', 'more', 'number'),
];

const BY_KEY = new Map(DEVICE_COLUMNS.map((entry) => [entry.key, entry]));

/** The column of a key, or undefined for a key no column has (an old stored choice). */
export function deviceColumn(key: string): DeviceColumn | undefined {
  return BY_KEY.get(key);
}

/** Columns shown before the user chooses: what a fleet operator scans first. */
export const DEFAULT_COLUMN_KEYS: readonly string[] = [
  'name',
  'isConnected',
  'site',
  'groupPath',
  'lastConnection',
  'fw',
  'model',
  'sn',
  'signal',
  'plan',
];

/**
 * A stored column choice made usable: unknown keys dropped, duplicates removed, and never empty
 * (an empty choice would show a table of nothing, so it falls back to the defaults).
 */
export function normaliseColumnChoice(keys: unknown): string[] {
  if (!Array.isArray(keys)) return [...DEFAULT_COLUMN_KEYS];
  const known = [...new Set(keys.filter((key): key is string => typeof key === 'string' && BY_KEY.has(key)))];
  return known.length > 0 ? known : [...DEFAULT_COLUMN_KEYS];
}
