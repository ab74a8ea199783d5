import { Type, type Static } from '@sinclair/typebox';
import {
  DEVICE_IMPORT_MAX_CHARS,
  DEVICE_MAX_TAGS,
  DEVICE_NAME_MAX_LENGTH,
  DEVICE_SERIAL_MAX_LENGTH,
} from '@fieldlink/domain/device-import';
import { MAX_CHANNEL_SETTINGS } from '@fieldlink/domain/device-settings';
import { ChannelConfig, DeviceHealth, DevicePort, TimeDateSetting, WriteConfigFields } from './device-frames';
import { ChannelCode, EntityId, Nullable, RegisterNumber, RegisterValue, Timestamp } from './fields';
import { THING_NAME_PATTERN } from './mqtt-topics';
import { LatestValue } from './realtime';
import { OtaUpdate } from './ota';
import { AlarmConfig } from './alarms';
import { DeviceLogsAnswer, DeviceLogsQuery } from './device-logs';
import { errorAnswers } from './errors';
import { apiRoute } from './routes';

/** At most this many custom attributes on one device. */
export const MAX_CUSTOM_ATTRIBUTES = 50;
/** Most minutes of samples `GET /device` brings per channel. */
export const MAX_DEVICE_LOG_MINUTES = 60;
/** Most samples per channel in `logs`: a longer window is binned. */
export const MAX_DEVICE_LOG_POINTS = 120;

export const DeviceLocation = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  address: Type.Optional(Type.String({ maxLength: 300 })),
});
export type DeviceLocation = Static<typeof DeviceLocation>;

export const DeviceTag = Type.Object({ id: Type.String(), key: Type.String(), value: Type.String() });

/** Device plans (core §2, §3): anything but PREMIUM is shown as Free. */
export const DevicePlan = Type.Union([Type.Literal('FREE'), Type.Literal('PREMIUM')]);
export type DevicePlan = Static<typeof DevicePlan>;

/** A message for a device: one of the commands a person may send it (docs/device-protocol.md §6). */
export const DeviceMessage = Type.Union([
  Type.Object(
    {
      cmd: Type.Literal('writeChannel'),
      code: ChannelCode,
      value: Type.Number(),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      cmd: Type.Literal('writeRegister'),
      register: RegisterNumber,
      value: RegisterValue,
    },
    { additionalProperties: false },
  ),
  Type.Object({ cmd: Type.Literal('refreshMetadata') }, { additionalProperties: false }),
  Type.Object({ cmd: Type.Literal('system'), command: Type.Literal('FLASH LED') }, { additionalProperties: false }),
  Type.Object({ cmd: Type.Literal('timeDate'), ...TimeDateSetting.properties }, { additionalProperties: false }),
  Type.Object(
    { cmd: Type.Literal('writeConfig'), ...WriteConfigFields },
    { additionalProperties: false, minProperties: 2 },
  ),
]);
export type DeviceMessage = Static<typeof DeviceMessage>;

/** Where a message stands: queued for the next connection, delivered, refused, or given up on. */
export const DeviceMessageStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
  Type.Literal('expired'),
  Type.Literal('replaced'),
]);
export type DeviceMessageStatus = Static<typeof DeviceMessageStatus>;

/** A message queued for a device that was offline. Times are unix milliseconds. */
export const QueuedDeviceMessage = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  message: DeviceMessage,
  status: DeviceMessageStatus,
  createdAt: Type.Number(),
  expiresAt: Type.Number(),
});
export type QueuedDeviceMessage = Static<typeof QueuedDeviceMessage>;

/** A device's custom attributes (core §3 `customAttributes`): named text values a person keeps on it. */
export const CustomAttributes = Type.Record(
  Type.String({ minLength: 1, maxLength: 64 }),
  // Text only: the server coerces body types, so a union of text, number and flag would not survive.
  Type.String({ maxLength: 256 }),
  { maxProperties: MAX_CUSTOM_ATTRIBUTES },
);
export type CustomAttributes = Static<typeof CustomAttributes>;

/**
 * A channel of a device (core §3): what the device reports about it (`code`, `name`, `upload`,
 * `alarm`, `config`), the alarm set on it in Fieldlink (`alarmData`: thresholds, delay, severity;
 * null when none is set), its latest sample (`latestLog`), and its recent samples (`logs`, only
 * when `GET /device` is asked for them with `logMinutes`).
 */
export const DeviceChannel = Type.Composite([
  ChannelConfig,
  Type.Object({
    alarmData: Type.Optional(Nullable(AlarmConfig)),
    latestLog: Type.Optional(Nullable(LatestValue)),
    logs: Type.Optional(Type.Array(LatestValue)),
  }),
]);
export type DeviceChannel = Static<typeof DeviceChannel>;

/**
 * A device's settings as the console asked for them (core §3 `settings`): the messages still queued
 * for it because it was offline, oldest first. Answered by `GET /device` and `POST /device-config`.
 */
export const DeviceSettingsStatus = Type.Object({ unsentMessages: Type.Array(QueuedDeviceMessage) });
export type DeviceSettingsStatus = Static<typeof DeviceSettingsStatus>;

/** A device as the console sees it (specification §3 Device). Times are unix milliseconds. */
export const Device = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  groupId: Type.String(),
  name: Type.String(),
  sn: Nullable(Type.String()),
  thingName: Type.String(),
  fw: Nullable(Type.String()),
  model: Nullable(Type.String()),
  hw: Nullable(Type.String()),
  site: Nullable(Type.String()),
  plan: DevicePlan,
  base: Nullable(Type.String()),
  custom: Nullable(Type.String()),
  espFw: Nullable(Type.String()),
  hwPlatform: Nullable(Type.String()),
  updatePoint: Nullable(Type.String()),
  uploadInterval: Nullable(Type.Number()),
  logInterval: Nullable(Type.Number()),
  timeDate: Nullable(Type.Object({ tzName: Type.String(), tzRule: Type.Optional(Type.String()) })),
  channels: Type.Array(DeviceChannel),
  registers: Type.Record(Type.String(), Type.Number()),
  /** The device's configured number of expanded-IO points (`xdo1`...), null when it reports none. */
  expandedIoMax: Nullable(Type.Integer()),
  customAttributes: CustomAttributes,
  settings: Type.Optional(DeviceSettingsStatus),
  ports: Type.Array(DevicePort),
  location: Nullable(DeviceLocation),
  path: Type.String({ description: "group path: './' then slash-separated group ids" }),
  createdAt: Type.Number(),
  isConnected: Type.Boolean(),
  lastConnection: Nullable(Type.Number()),
  lastDisconnection: Nullable(Type.Number()),
  otaPendingSubmittedAt: Nullable(Type.Number()),
  /** The device's latest over-the-air update, null when it never had one. */
  update: Type.Optional(Nullable(OtaUpdate)),
  tags: Type.Array(DeviceTag),
  health: Nullable(DeviceHealth),
  status: Type.Object({ sp: Type.Optional(Type.Integer()) }, { additionalProperties: true }),
  alarmsHaveBeenRead: Type.Boolean(),
  /** True when the caller has muted this device's disconnection alerts (their own `mutedDevices`). */
  muted: Type.Optional(Type.Boolean()),
  /**
   * Great-circle distance in kilometres from the point `GET /device` was asked about (`latitude`,
   * `longitude`: a geo-distance filter's point), null when the device has no location; absent
   * when no point was given (core §3 `distance`).
   */
  distance: Type.Optional(Nullable(Type.Number())),
});
export type Device = Static<typeof Device>;

/** Where devices connect: the installation's MQTT broker as devices reach it (`mqtt://host:port`). */
const BrokerUrl = Type.String();

/**
 * `POST /device`: provision a device. Without a group it lands in its account's New Devices group.
 * Its thing name is made up unless given (a device that already carries one, printed on its label).
 */
export const ProvisionDeviceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: DEVICE_NAME_MAX_LENGTH, pattern: '\\S' }),
    groupId: Type.Optional(EntityId),
    accountId: Type.Optional(EntityId),
    sn: Type.Optional(Type.String({ maxLength: DEVICE_SERIAL_MAX_LENGTH })),
    thingName: Type.Optional(Type.String({ pattern: THING_NAME_PATTERN })),
  },
  { additionalProperties: false },
);
export type ProvisionDeviceBody = Static<typeof ProvisionDeviceBody>;

/** docs/device-protocol.md as plain text, for the console's link beside new credentials (public). */
export const DEVICE_PROTOCOL_DOC_PATH = '/docs/device-protocol';

/** Path of the bulk import (ours: issue 35 item 6, docs/decisions.md). */
export const DEVICES_IMPORT_PATH = '/devices/import';

/**
 * `POST /devices/import`: devices from a CSV file (`@fieldlink/domain/device-import`), group paths
 * read from the account's root group down. With `dryRun` nothing is written and every row comes back
 * with its errors (the preview); without, every row is written in one transaction, or none when any
 * row has an error (400).
 */
export const DeviceImportBody = Type.Object(
  {
    accountId: EntityId,
    csv: Type.String({ minLength: 1, maxLength: DEVICE_IMPORT_MAX_CHARS }),
    dryRun: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type DeviceImportBody = Static<typeof DeviceImportBody>;

/** One row of an import as the server read it: where it goes and what is wrong with it. */
export const DeviceImportRowAnswer = Type.Object({
  line: Type.Integer(),
  name: Type.String(),
  sn: Nullable(Type.String()),
  /** The group path as the tree shows it (names from the account's root down); the New Devices group when none was given. */
  groupPath: Type.String(),
  tags: Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
  errors: Type.Array(Type.String()),
});
export type DeviceImportRowAnswer = Static<typeof DeviceImportRowAnswer>;

/** A device made by an import and its MQTT password, shown this once. */
export const ImportedDevice = Type.Object({
  line: Type.Integer(),
  deviceId: Type.String(),
  name: Type.String(),
  sn: Nullable(Type.String()),
  groupPath: Type.String(),
  thingName: Type.String(),
  password: Type.String(),
});
export type ImportedDevice = Static<typeof ImportedDevice>;

export const DeviceImportAnswer = Type.Object({
  /** Why the file as a whole cannot be read (then there are no rows), or null. */
  fileError: Nullable(Type.String()),
  rows: Type.Array(DeviceImportRowAnswer),
  /** True once every row is written; false for a preview. */
  imported: Type.Boolean(),
  /** The devices made, with their credentials: empty for a preview. */
  devices: Type.Array(ImportedDevice),
  brokerUrl: BrokerUrl,
});
export type DeviceImportAnswer = Static<typeof DeviceImportAnswer>;

export const ProvisionDeviceAnswer = Type.Object({
  device: Device,
  /** Shown this once: the server keeps only a hash of the password. */
  credentials: Type.Object({ thingName: Type.String(), password: Type.String() }),
  brokerUrl: BrokerUrl,
});
export type ProvisionDeviceAnswer = Static<typeof ProvisionDeviceAnswer>;

/**
 * `GET /device?id`; with `logMinutes` each channel brings its samples of that many minutes (`logs`);
 * with `latitude` and `longitude` the device brings its `distance` from that point.
 */
export const DeviceQuery = Type.Object(
  {
    id: EntityId,
    logMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DEVICE_LOG_MINUTES })),
    /** A point to measure the device's `distance` from; both or neither. */
    latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  },
  { additionalProperties: false, dependencies: { latitude: ['longitude'], longitude: ['latitude'] } },
);
export type DeviceQuery = Static<typeof DeviceQuery>;

/** `GET /device/channels/latest-values?ids=a,b`: comma-separated device ids. */
export const LatestValuesQuery = Type.Object(
  { ids: Type.String({ minLength: 1, maxLength: 20_000 }) },
  { additionalProperties: false },
);
/** Latest values per device id, then per channel code. */
export const LatestValuesAnswer = Type.Record(Type.String(), Type.Record(Type.String(), LatestValue));
export type LatestValuesAnswer = Static<typeof LatestValuesAnswer>;

/** Register number (as text, the way `registers` keys are) to a 16-bit value, signed or unsigned. */
export const RegisterWrites = Type.Record(Type.String({ pattern: '^(0|[1-9][0-9]{0,4})$' }), RegisterValue, {
  minProperties: 1,
  maxProperties: 64,
});

/**
 * Settings that live on the device itself (application §2 "Device settings"): channel names, upload
 * and alarm flags, the upload and log intervals, setpoints, registers and the time zone. They travel
 * to it as messages (`settingsMessages` of `@fieldlink/domain/device-settings`), now when it is
 * online, else queued for its next connection (answered as `unsentMessages`).
 */
export const DeviceSettings = Type.Object(
  {
    ...WriteConfigFields,
    setpoints: Type.Optional(
      Type.Record(ChannelCode, Type.Number(), { minProperties: 1, maxProperties: MAX_CHANNEL_SETTINGS }),
    ),
    registers: Type.Optional(RegisterWrites),
    timeDate: Type.Optional(TimeDateSetting),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type DeviceSettings = Static<typeof DeviceSettings>;

/** A location as the console sends it: the address is optional, both coordinates are required. */
export const DeviceLocationInput = Type.Object(DeviceLocation.properties, { additionalProperties: false });

/** What a device-node Apply may change (core §2 edit mode, §7 `POST /device-config`). */
export const DeviceConfigProps = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    site: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    location: Type.Optional(Nullable(DeviceLocationInput)),
    /** Mutes (true) or unmutes the caller's disconnection alerts for this device. */
    muteDisconnection: Type.Optional(Type.Boolean()),
    settings: Type.Optional(DeviceSettings),
    /** Replaces the device's custom attributes. */
    customAttributes: Type.Optional(CustomAttributes),
  },
  { additionalProperties: false },
);
export type DeviceConfigProps = Static<typeof DeviceConfigProps>;

export const DeviceConfigBody = Type.Object(
  { id: EntityId, props: DeviceConfigProps },
  { additionalProperties: false },
);
export type DeviceConfigBody = Static<typeof DeviceConfigBody>;

/** The outcome of a message sent to an online device. */
export const SentDeviceMessage = Type.Object({
  message: DeviceMessage,
  result: Type.Union([Type.Literal('OK'), Type.Literal('FAIL'), Type.Literal('TIMEOUT')]),
  value: Type.Optional(Type.Union([Type.Number(), Type.String()])),
});
export type SentDeviceMessage = Static<typeof SentDeviceMessage>;

export const DeviceConfigAnswer = Type.Object({
  device: Device,
  /** The caller's muted devices (thing names) as stored: the mute spinner waits for this to match. */
  mutedDevices: Type.Array(Type.String()),
  /** Settings messages queued because the device is offline; delivered when it reconnects. */
  unsentMessages: Type.Optional(Type.Array(QueuedDeviceMessage)),
  /** Settings messages sent to the online device, with its answers. */
  sentMessages: Type.Optional(Type.Array(SentDeviceMessage)),
});
export type DeviceConfigAnswer = Static<typeof DeviceConfigAnswer>;

/** `POST /message`: one message for a device, sent now or queued when it is offline. */
export const DeviceMessageBody = Type.Object(
  { deviceId: EntityId, message: DeviceMessage },
  { additionalProperties: false },
);
export type DeviceMessageBody = Static<typeof DeviceMessageBody>;

export const DeviceMessageAnswer = Type.Union([
  Type.Object({ status: Type.Literal('sent'), sent: SentDeviceMessage }),
  Type.Object({ status: Type.Literal('queued'), queued: QueuedDeviceMessage }),
]);
export type DeviceMessageAnswer = Static<typeof DeviceMessageAnswer>;

/** `PUT /device/tag`: adds a tag (no or unknown `tagId`) or changes one. */
export const DeviceTagBody = Type.Object(
  {
    deviceId: EntityId,
    tagId: Type.Optional(Type.String({ maxLength: 64 })),
    key: Type.String({ minLength: 1, maxLength: 64 }),
    value: Type.String({ maxLength: 256 }),
  },
  { additionalProperties: false },
);
export type DeviceTagBody = Static<typeof DeviceTagBody>;

export const DeleteDeviceTagBody = Type.Object(
  { deviceId: EntityId, tagId: EntityId },
  { additionalProperties: false },
);
export type DeleteDeviceTagBody = Static<typeof DeleteDeviceTagBody>;

export const DeviceTagsAnswer = Type.Object({ tags: Type.Array(DeviceTag) });
export type DeviceTagsAnswer = Static<typeof DeviceTagsAnswer>;

/** At most this many tags on one device. */
export const MAX_DEVICE_TAGS = DEVICE_MAX_TAGS;

/** `GET /device/connections?deviceId`: the connection log, newest first. */
export const DeviceConnectionsQuery = Type.Object(
  {
    deviceId: EntityId,
    /** Only entries before this time (unix ms), for paging back. */
    before: Type.Optional(Timestamp()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);
export type DeviceConnectionsQuery = Static<typeof DeviceConnectionsQuery>;

export const DeviceConnection = Type.Object({ t: Type.Number(), connected: Type.Boolean() });
export type DeviceConnection = Static<typeof DeviceConnection>;
export const DeviceConnectionsAnswer = Type.Object({ connections: Type.Array(DeviceConnection) });
export type DeviceConnectionsAnswer = Static<typeof DeviceConnectionsAnswer>;

/**
 * `PUT /device/plan`: the supplier's administrator changes a device's plan. Customers see
 * "Please contact your supplier to change your device plan." instead (core §6).
 */
export const DevicePlanBody = Type.Object({ id: EntityId, plan: DevicePlan }, { additionalProperties: false });
export type DevicePlanBody = Static<typeof DevicePlanBody>;

/** The alert a customer sees on Upgrade or Change (core §6). */
export const CONTACT_SUPPLIER_FOR_PLAN = 'Please contact your supplier to change your device plan.';

const DEVICE_ERRORS = errorAnswers(400, 401, 403, 404, 409);

/** The device calls a simulated device answers too (in the browser), as the server registers them. */
export const DEVICE_ROUTES = {
  device: apiRoute('GET', '/device', {
    tags: ['devices'],
    summary: 'One device',
    querystring: DeviceQuery,
    response: { 200: Device, ...DEVICE_ERRORS },
  }),
  connections: apiRoute('GET', '/device/connections', {
    tags: ['devices'],
    summary: 'Connection log of a device, newest first',
    querystring: DeviceConnectionsQuery,
    response: { 200: DeviceConnectionsAnswer, ...DEVICE_ERRORS },
  }),
  latestValues: apiRoute('GET', '/device/channels/latest-values', {
    tags: ['devices'],
    summary: 'Latest value of every channel of many devices (comma-separated ids)',
    querystring: LatestValuesQuery,
    response: { 200: LatestValuesAnswer, ...DEVICE_ERRORS },
  }),
  logs: apiRoute('GET', '/device-logs', {
    tags: ['devices'],
    summary: 'Logs grouped by channel: every sample, or at most binCount bins of min, max, mean, last',
    querystring: DeviceLogsQuery,
    response: { 200: DeviceLogsAnswer, ...DEVICE_ERRORS },
  }),
};
