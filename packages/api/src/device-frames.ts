import { Type, type Static } from '@sinclair/typebox';
import {
  CHANNEL_NAME_MAX_LENGTH,
  DEVICE_MAX_CHANNELS,
  LOG_INTERVAL_SECONDS,
  MAX_CHANNEL_SETTINGS,
  UPLOAD_INTERVAL_MINUTES,
} from '@fieldlink/domain/device-settings';
import { OTA_REPORT_STATES, OTA_UPDATE_COMMAND_MAX_LENGTH, type OtaReportState } from '@fieldlink/domain/ota';
import { LATEST_TIMESTAMP_MS } from '@fieldlink/domain/timestamps';
import { RegisterNumber, RegisterValue } from './fields';

/**
 * Version 4 device frames, after `upgradeFrame` of `@fieldlink/domain/frame-upgrade` has lifted
 * versions 1 to 3. Documented in docs/device-protocol.md.
 */

const Timestamp = Type.Number({
  minimum: 0,
  maximum: LATEST_TIMESTAMP_MS,
  description: 'unix seconds, or milliseconds when longer than 12 digits',
});
const ChannelCode = Type.String({ pattern: '^[a-z]{1,4}-?[0-9]{1,3}$', maxLength: 8 });

export const LogFrame = Type.Object(
  {
    v: Type.Literal(4),
    type: Type.Literal('log'),
    t: Timestamp,
    values: Type.Record(ChannelCode, Type.Number(), { maxProperties: 256, additionalProperties: false }),
    /** Temperature-control channels carry their setpoint and difference too. */
    extra: Type.Optional(
      Type.Record(
        ChannelCode,
        Type.Object({ tempSp: Type.Optional(Type.Number()), diff: Type.Optional(Type.Number()) }),
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type LogFrame = Static<typeof LogFrame>;

export const DeviceHealth = Type.Object(
  {
    t: Type.Optional(Timestamp),
    mi: Type.Optional(Type.Number()),
    networkInterface: Type.Optional(Type.String({ maxLength: 64 })),
    currentTimeZone: Type.Optional(Type.String({ maxLength: 64 })),
    supplyVoltage: Type.Optional(Type.Number()),
    signal: Type.Optional(Type.Number()),
    signalQuality: Type.Optional(Type.Number()),
    resets: Type.Optional(Type.Number()),
    port1Resets: Type.Optional(Type.Number()),
    networkConnects: Type.Optional(Type.Number()),
    mqttConnects: Type.Optional(Type.Number()),
    cpuTemp: Type.Optional(Type.Number()),
    errorStatus: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
);
export type DeviceHealth = Static<typeof DeviceHealth>;

export const HealthFrame = Type.Object(
  { v: Type.Literal(4), type: Type.Literal('health'), t: Timestamp, health: DeviceHealth },
  { additionalProperties: false },
);
export type HealthFrame = Static<typeof HealthFrame>;

/**
 * The product a smart shelf's counting channel holds, from the shelf's planogram: `slotCount`
 * facings side by side, units `depth` mm deep (application §3 Retail store).
 */
export const ShelfProduct = Type.Object(
  {
    sku: Type.String({ minLength: 1, maxLength: 64 }),
    slotCount: Type.Integer({ minimum: 1, maximum: 100 }),
    depth: Type.Number({ exclusiveMinimum: 0, maximum: 10_000 }),
    planogramId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type ShelfProduct = Static<typeof ShelfProduct>;

export const ChannelConfig = Type.Object(
  {
    code: ChannelCode,
    name: Type.Optional(Type.String({ maxLength: 64 })),
    /** The unit of the channel's value (`°C`, `m³`); a relay or input with a unit is a quantity. */
    units: Type.Optional(Type.String({ maxLength: 20 })),
    upload: Type.Optional(Type.Boolean()),
    alarm: Type.Optional(Type.Boolean()),
    /** Set on a smart shelf's channel counting a product. */
    product: Type.Optional(ShelfProduct),
    /**
     * The channel's own configuration as the device keeps it (units, range, scaling, sensor type):
     * up to 32 entries of text, number or flag, shown to the person as reported.
     */
    config: Type.Optional(ChannelOwnConfig()),
  },
  { additionalProperties: false },
);
export type ChannelConfig = Static<typeof ChannelConfig>;

function ChannelOwnConfig() {
  return Type.Record(
    Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,31}$' }),
    Type.Union([Type.String({ maxLength: 64 }), Type.Number(), Type.Boolean()]),
    { maxProperties: 32, additionalProperties: false },
  );
}

/** One channel's settings as a person changes them (`writeConfig`): name, upload and alarm flags. */
export const ChannelSettings = Type.Object(
  {
    code: ChannelCode,
    name: Type.Optional(Type.String({ maxLength: CHANNEL_NAME_MAX_LENGTH })),
    upload: Type.Optional(Type.Boolean()),
    alarm: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 2 },
);

const TimeZoneName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+\\-/]+$' });
/**
 * A time zone as the device's `timeDate` command carries it: IANA name and POSIX TZ rule. One schema
 * for `POST /message`, `POST /device-config` settings and the real-time `server/timeDate`.
 */
export const TimeDateSetting = Type.Object(
  { tzName: TimeZoneName, tzRule: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
export type TimeDateSetting = Static<typeof TimeDateSetting>;

/** The fields of a `writeConfig` command: channel settings and the two intervals. */
export const WriteConfigFields = {
  channels: Type.Optional(Type.Array(ChannelSettings, { minItems: 1, maxItems: MAX_CHANNEL_SETTINGS })),
  /** Minutes between uploads. */
  uploadInterval: Type.Optional(
    Type.Integer({ minimum: UPLOAD_INTERVAL_MINUTES.min, maximum: UPLOAD_INTERVAL_MINUTES.max }),
  ),
  /** Seconds between log samples. */
  logInterval: Type.Optional(Type.Integer({ minimum: LOG_INTERVAL_SECONDS.min, maximum: LOG_INTERVAL_SECONDS.max })),
};

export const DevicePort = Type.Object(
  {
    index: Type.Integer({ minimum: 0, maximum: 16 }),
    portType: Type.String({ maxLength: 32 }),
    model: Type.Optional(Type.String({ maxLength: 64 })),
    cmd: Type.Optional(Type.String({ maxLength: 64 })),
    band: Type.Optional(Type.String({ maxLength: 32 })),
    iccid: Type.Optional(Type.String({ maxLength: 32 })),
    imei: Type.Optional(Type.String({ maxLength: 32 })),
    operator: Type.Optional(Type.String({ maxLength: 64 })),
    netType: Type.Optional(Type.String({ maxLength: 32 })),
    cellApn: Type.Optional(Type.String({ maxLength: 64 })),
    fw: Type.Optional(Type.String({ maxLength: 64 })),
    modemFw: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type DevicePort = Static<typeof DevicePort>;

/**
 * Configuration a device reports about itself. `subtype` names the part it describes: `device`
 * (identity and intervals), `dOut` (main relay group outputs), `input`, `secondary` (secondary inputs).
 */
export const ConfigFrame = Type.Object(
  {
    v: Type.Literal(4),
    type: Type.Literal('config'),
    t: Type.Optional(Timestamp),
    subtype: Type.Union([
      Type.Literal('device'),
      Type.Literal('dOut'),
      Type.Literal('input'),
      Type.Literal('secondary'),
    ]),
    sn: Type.Optional(Type.String({ maxLength: 64 })),
    fw: Type.Optional(Type.String({ maxLength: 64 })),
    model: Type.Optional(Type.String({ maxLength: 64 })),
    hw: Type.Optional(Type.String({ maxLength: 128, description: 'colon-separated hardware string' })),
    base: Type.Optional(Type.String({ maxLength: 64 })),
    custom: Type.Optional(Type.String({ maxLength: 64 })),
    espFw: Type.Optional(Type.String({ maxLength: 64 })),
    uploadInterval: Type.Optional(Type.Number({ minimum: 0 })),
    logInterval: Type.Optional(Type.Number({ minimum: 0 })),
    hwPlatform: Type.Optional(Type.String({ maxLength: 64 })),
    updatePoint: Type.Optional(Type.String({ maxLength: 64 })),
    timeDate: Type.Optional(
      Type.Object({ tzName: Type.String({ maxLength: 64 }), tzRule: Type.Optional(Type.String({ maxLength: 128 })) }),
    ),
    channels: Type.Optional(Type.Array(ChannelConfig, { maxItems: DEVICE_MAX_CHANNELS })),
    /** How many expanded-IO points (`xdo1`, `xdi1`) the device is configured for. */
    expandedIoMax: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
    registers: Type.Optional(
      Type.Record(Type.String({ pattern: '^[0-9]{1,5}$' }), Type.Number(), {
        maxProperties: 512,
        additionalProperties: false,
      }),
    ),
    ports: Type.Optional(Type.Array(DevicePort, { maxItems: 8 })),
  },
  { additionalProperties: false },
);
export type ConfigFrame = Static<typeof ConfigFrame>;

export const StatusFrame = Type.Object(
  {
    v: Type.Literal(4),
    type: Type.Literal('status'),
    t: Timestamp,
    status: Type.Object({ sp: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: true }),
  },
  { additionalProperties: false },
);
export type StatusFrame = Static<typeof StatusFrame>;

/** Connection state: published by the device on connect and as its MQTT will (ungraceful loss). */
export const ConnFrame = Type.Object(
  { v: Type.Literal(4), type: Type.Literal('conn'), t: Type.Optional(Timestamp), connected: Type.Boolean() },
  { additionalProperties: false },
);
export type ConnFrame = Static<typeof ConnFrame>;

/** The device's answer to a command, matched by the command's correlation id. */
export const ReplyFrame = Type.Object(
  {
    v: Type.Literal(4),
    type: Type.Literal('reply'),
    id: Type.String({ minLength: 1, maxLength: 64 }),
    result: Type.Union([Type.Literal('OK'), Type.Literal('FAIL')]),
    value: Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 256 })])),
  },
  { additionalProperties: false },
);
export type ReplyFrame = Static<typeof ReplyFrame>;

/**
 * Progress of an over-the-air update the device was sent (`otaUpdate` command): `downloading` with a
 * percentage, `installing`, `rebooting`, then `succeeded` (with the firmware now running) or `failed`
 * (with the reason).
 */
export const OtaFrame = Type.Object(
  {
    v: Type.Literal(4),
    type: Type.Literal('ota'),
    t: Type.Optional(Timestamp),
    updateId: Type.String({ minLength: 1, maxLength: 64 }),
    state: Type.Union(OTA_REPORT_STATES.map((state) => Type.Literal<OtaReportState>(state))),
    percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    fw: Type.Optional(Type.String({ maxLength: 64 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type OtaFrame = Static<typeof OtaFrame>;

export const DeviceFrame = Type.Union([
  LogFrame,
  HealthFrame,
  ConfigFrame,
  StatusFrame,
  ConnFrame,
  ReplyFrame,
  OtaFrame,
]);
export type DeviceFrame = Static<typeof DeviceFrame>;

/** Largest frame accepted from a device, in bytes. */
export const MAX_FRAME_BYTES = 16 * 1024;

/** Commands the server sends to `dev/{thingName}/down`. */
export const DeviceCommand = Type.Union([
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('readChannel'),
    code: ChannelCode,
  }),
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('writeChannel'),
    code: ChannelCode,
    value: Type.Number(),
  }),
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('readRegister'),
    register: RegisterNumber,
  }),
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('writeRegister'),
    register: RegisterNumber,
    value: RegisterValue,
  }),
  Type.Object({ v: Type.Literal(4), id: Type.String(), exp: Type.Number(), cmd: Type.Literal('refreshMetadata') }),
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('system'),
    command: Type.Literal('FLASH LED'),
  }),
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('timeDate'),
    tzName: Type.String(),
    tzRule: Type.String(),
  }),
  /** Change channel settings and intervals; the device then publishes its `config` frames again. */
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('writeConfig'),
    ...WriteConfigFields,
  }),
  /** Run an over-the-air update; progress comes back in `ota` frames naming `updateId`. */
  Type.Object({
    v: Type.Literal(4),
    id: Type.String(),
    exp: Type.Number(),
    cmd: Type.Literal('otaUpdate'),
    updateId: Type.String({ minLength: 1, maxLength: 64 }),
    updateCommand: Type.String({ minLength: 1, maxLength: OTA_UPDATE_COMMAND_MAX_LENGTH }),
  }),
]);
export type DeviceCommand = Static<typeof DeviceCommand>;
