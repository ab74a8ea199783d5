import { Type, type Static } from '@sinclair/typebox';
import { GroupKind } from './account';
import { DEVICE_TABLE_BINARY_QUERY } from './first-calls';

/**
 * `GET /devices/table`: every device the caller may see, in a compact columnar form for the device
 * table (core §2). One array per field instead of one object per device: at 100,000 devices an array
 * of objects repeats each key 100,000 times; columns carry each key once, and text fields with few
 * distinct values (firmware, model, site, operator) are sent as a dictionary and small codes.
 * docs/decisions.md ("Device table") describes the call, its caching and its size.
 */

/** Version of the compact form; bumped when a field changes meaning. */
export const DEVICE_TABLE_FORMAT = 1;

export { DEVICE_TABLE_PATH } from './first-calls';

/** Text fields of every device, in the answer's `text`. */
export const DEVICE_TABLE_TEXT_FIELDS = [
  'id',
  'name',
  'thingName',
  'sn',
  'site',
  'plan',
  'fw',
  'model',
  'base',
  'custom',
  'espFw',
  /** The colon-separated hardware string; its first part is the hardware family. */
  'hw',
  'hwPlatform',
  'updatePoint',
  'tzName',
  'address',
  /** Of the modem port: command version, module type, SIM and network. */
  'cmd',
  'modemModel',
  'iccid',
  'imei',
  'band',
  'operator',
  'netType',
  'cellApn',
  'networkInterface',
  /** Active channel alarms, as `encodeActiveAlarms` of `@fieldlink/domain/alarms` writes them. */
  'activeAlarms',
  /** State of the device's latest OTA update (an OtaState), null when it never had one. */
  'otaState',
] as const;
export type DeviceTableTextField = (typeof DEVICE_TABLE_TEXT_FIELDS)[number];

/**
 * Number fields, in the answer's `numbers`: times in unix milliseconds, flags as 0 or 1, `group` the
 * index of the device's group in `groups`, null where the device has no value.
 */
export const DEVICE_TABLE_NUMBER_FIELDS = [
  'group',
  'isConnected',
  'lastConnection',
  'lastDisconnection',
  'createdAt',
  'channelCount',
  'lat',
  'lng',
  'signal',
  'signalQuality',
  'cpuTemp',
  'resets',
  'port1Resets',
  'networkConnects',
  'mqttConnects',
  'healthTime',
  'supplyVoltage',
  'errorStatus',
  /** `status.sp`, the alarm bit mask. */
  'statusSp',
  'otaPendingSubmittedAt',
  /** The caller's mute flag for the device's disconnection alerts. */
  'muted',
  /** Settings messages queued for the device while it was offline. */
  'pendingMessages',
  /** Download percentage of the device's latest OTA update. */
  'otaPercent',
] as const;
export type DeviceTableNumberField = (typeof DEVICE_TABLE_NUMBER_FIELDS)[number];

/** A text column: the values, or a dictionary with one code per device (-1: no value). */
export const TextColumn = Type.Union([
  Type.Object({ values: Type.Array(Type.Union([Type.String(), Type.Null()])) }, { additionalProperties: false }),
  Type.Object(
    { dict: Type.Array(Type.String()), codes: Type.Array(Type.Integer({ minimum: -1 })) },
    { additionalProperties: false },
  ),
]);
export type TextColumn = Static<typeof TextColumn>;

export const NumberColumn = Type.Array(Type.Union([Type.Number(), Type.Null()]));
export type NumberColumn = Static<typeof NumberColumn>;

/** A group in the caller's scope: for the group-path column and the GROUP filter's choices. */
export const DeviceTableGroup = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    kind: GroupKind,
    /** `./` then the group ids from the top of the tree. */
    path: Type.String(),
  },
  { additionalProperties: false },
);
export type DeviceTableGroup = Static<typeof DeviceTableGroup>;

const columns = <T extends typeof TextColumn | typeof NumberColumn>(keys: readonly string[], schema: T) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, schema])), { additionalProperties: false });

export const DeviceTableAnswer = Type.Object(
  {
    format: Type.Literal(DEVICE_TABLE_FORMAT),
    /** When the answer was built (unix ms); it may be served from a cache for a few seconds. */
    generatedAt: Type.Number(),
    count: Type.Integer({ minimum: 0 }),
    groups: Type.Array(DeviceTableGroup),
    text: columns(DEVICE_TABLE_TEXT_FIELDS, TextColumn),
    numbers: columns(DEVICE_TABLE_NUMBER_FIELDS, NumberColumn),
  },
  { additionalProperties: false },
);
export interface DeviceTableAnswer {
  format: typeof DEVICE_TABLE_FORMAT;
  generatedAt: number;
  count: number;
  groups: DeviceTableGroup[];
  text: Record<DeviceTableTextField, TextColumn>;
  numbers: Record<DeviceTableNumberField, NumberColumn>;
}

export { DEVICE_TABLE_BINARY_QUERY } from './first-calls';

/** The call's one argument: which form to answer in; anything else is refused. */
export const DeviceTableQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Literal(DEVICE_TABLE_BINARY_QUERY, {
        description:
          'binary: the binary form (format 3, application/vnd.fieldlink.device-table) read straight into typed ' +
          'columns; absent: the JSON form (DeviceTableAnswer, format 1).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeviceTableQuery = Static<typeof DeviceTableQuery>;

/** The values of a text column, one per device, whichever form it was sent in. */
export function textColumnValues(column: TextColumn): (string | null)[] {
  if ('values' in column) return column.values;
  const { dict, codes } = column;
  return codes.map((code) => (code >= 0 ? (dict[code] ?? null) : null));
}

/**
 * A text column in its smaller form: a dictionary when values repeat (fewer distinct values than
 * half the devices), the plain values otherwise.
 */
export function encodeTextColumn(values: readonly (string | null)[]): TextColumn {
  const index = new Map<string, number>();
  const codes: number[] = new Array(values.length);
  for (let row = 0; row < values.length; row += 1) {
    const value = values[row];
    if (value === null || value === undefined) {
      codes[row] = -1;
      continue;
    }
    let code = index.get(value);
    if (code === undefined) {
      if ((index.size + 1) * 2 > values.length) return { values: [...values] };
      code = index.size;
      index.set(value, code);
    }
    codes[row] = code;
  }
  return { dict: [...index.keys()], codes };
}

/** One device's line of the table, as domain `deviceTableRow` makes it. */
export interface DeviceTableLine {
  text: Record<DeviceTableTextField, string | null>;
  numbers: Record<DeviceTableNumberField, number | null>;
}

/**
 * The answer's columns, filled one line at a time: the server as it reads its device rows in runs,
 * the browser demo from its simulated fleet, both in the same columnar form.
 */
export class DeviceTableColumns {
  private readonly text = Object.fromEntries(
    DEVICE_TABLE_TEXT_FIELDS.map((field) => [field, [] as (string | null)[]]),
  ) as Record<DeviceTableTextField, (string | null)[]>;
  private readonly numbers = Object.fromEntries(
    DEVICE_TABLE_NUMBER_FIELDS.map((field) => [field, [] as (number | null)[]]),
  ) as Record<DeviceTableNumberField, (number | null)[]>;
  private count = 0;

  add({ text, numbers }: DeviceTableLine): void {
    for (const field of DEVICE_TABLE_TEXT_FIELDS) this.text[field].push(text[field]);
    for (const field of DEVICE_TABLE_NUMBER_FIELDS) this.numbers[field].push(numbers[field]);
    this.count += 1;
  }

  /** The answer of the lines added, over `groups` (each line's `group` is an index in it). */
  answer(groups: DeviceTableGroup[], generatedAt: number): DeviceTableAnswer {
    return {
      format: DEVICE_TABLE_FORMAT,
      generatedAt,
      count: this.count,
      groups,
      text: Object.fromEntries(
        DEVICE_TABLE_TEXT_FIELDS.map((field) => [field, encodeTextColumn(this.text[field])]),
      ) as DeviceTableAnswer['text'],
      numbers: this.numbers,
    };
  }
}
