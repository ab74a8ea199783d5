import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { DeviceAction } from '@fieldlink/domain/device-actions';
import { AlarmRecord } from './alarms';
import { Tank } from './brew';
import { DeviceHealth, ConfigFrame, TimeDateSetting, WriteConfigFields } from './device-frames';
import { ChannelCode, Nullable, RegisterNumber, RegisterValue } from './fields';
import { THING_NAME_PATTERN } from './mqtt-topics';
import { OtaStateSchema, OtaUpdate } from './ota';
import { ReportStateSchema } from './reports';

/**
 * The real-time channel: one WebSocket at {@link REALTIME_PATH}. Every action name carries the
 * `server/` prefix of the specification. Requests from the browser carry an `id`; the server
 * answers each with `server/reply` of the same id.
 */
export const REALTIME_PATH = '/api/v1/realtime';
/** Sub-protocol the browser offers beside its token (`new WebSocket(url, [REALTIME_PROTOCOL, token])`). */
export const REALTIME_PROTOCOL = 'fieldlink.v1';

/** Messages of the specification's real-time error catalogue. */
export const REALTIME_TIMEOUT_MESSAGE = 'Timeout when waiting for response.';
export const REALTIME_COMMAND_FAILED_MESSAGE = 'Command Failed.';
/** How long a device has to answer a command before the browser is told it timed out. */
export const COMMAND_TIMEOUT_MS = 10_000;

const RequestId = Type.String({ minLength: 1, maxLength: 64 });
const ThingName = Type.String({ pattern: THING_NAME_PATTERN });

/** Most devices one `server/subscribeDevices` or `server/unsubscribeDevices` names; more go in several. */
export const MAX_SUBSCRIBE_DEVICES = 500;

const request = <K extends string, P extends Record<string, TSchema>>(type: K, props: P) =>
  Type.Object({ type: Type.Literal(type), id: RequestId, ...props }, { additionalProperties: false });

/** Browser -> server. */
export const ClientAction = Type.Union([
  request('server/subscribeDevices', {
    thingNames: Type.Array(ThingName, { minItems: 1, maxItems: MAX_SUBSCRIBE_DEVICES }),
  }),
  request('server/unsubscribeDevices', {
    thingNames: Type.Array(ThingName, { minItems: 1, maxItems: MAX_SUBSCRIBE_DEVICES }),
  }),
  request('server/readChannel', { thingName: ThingName, code: ChannelCode }),
  request('server/writeChannel', { thingName: ThingName, code: ChannelCode, value: Type.Number() }),
  request('server/readRegister', { thingName: ThingName, register: RegisterNumber }),
  request('server/writeRegister', {
    thingName: ThingName,
    register: RegisterNumber,
    value: RegisterValue,
  }),
  request('server/refreshMetadata', { thingName: ThingName }),
  request('server/systemCommand', { thingName: ThingName, command: Type.Literal('FLASH LED') }),
  request('server/timeDate', { thingName: ThingName, ...TimeDateSetting.properties }),
  request('server/writeConfig', { thingName: ThingName, ...WriteConfigFields }),
  /**
   * Live changes of the device table (connection state, firmware, OTA progress) for every device in
   * the caller's scope, in batches ({@link DeviceTableChangesAction}) until unwatched or closed.
   */
  request('server/watchDeviceTable', {}),
  request('server/unwatchDeviceTable', {}),
]);
export type ClientAction = Static<typeof ClientAction>;
export type ClientActionType = ClientAction['type'];

/**
 * The device action of each real-time request, whose row of the domain's one authorization table
 * (`DEVICE_ACTION_CAPABILITIES`) the server checks: the same row as its REST twin (`POST /message`,
 * `POST /device-config` settings). A new action does not compile until it is mapped here.
 */
export const REALTIME_DEVICE_ACTIONS: Readonly<Record<ClientActionType, DeviceAction>> = {
  'server/subscribeDevices': 'watch',
  'server/unsubscribeDevices': 'watch',
  'server/readChannel': 'readChannel',
  'server/writeChannel': 'writeChannel',
  'server/readRegister': 'readRegister',
  'server/writeRegister': 'writeRegister',
  'server/refreshMetadata': 'refreshMetadata',
  'server/systemCommand': 'system',
  'server/timeDate': 'timeDate',
  'server/writeConfig': 'writeConfig',
  // The table's live feed is the real-time twin of `GET /devices/table`: the rule of reading devices.
  'server/watchDeviceTable': 'read',
  'server/unwatchDeviceTable': 'read',
};

export const LatestValue = Type.Object({
  value: Type.Number(),
  t: Type.Number({ description: 'unix milliseconds' }),
  tempSp: Type.Optional(Type.Number()),
  diff: Type.Optional(Type.Number()),
});
export type LatestValue = Static<typeof LatestValue>;

export const ReplyAction = Type.Object({
  type: Type.Literal('server/reply'),
  id: RequestId,
  ok: Type.Boolean(),
  value: Type.Optional(Type.Union([Type.Number(), Type.String()])),
  error: Type.Optional(Type.String()),
  /**
   * Set when the request was refused because too many are waiting for their answer (per connection,
   * user or device: `@fieldlink/domain/realtime-limits`): try again after this many seconds. The
   * real-time twin of a 429 with `retryAfterSeconds`.
   */
  retryAfterSeconds: Type.Optional(Type.Integer({ minimum: 1 })),
});
export const NewRawLogsAction = Type.Object({
  type: Type.Literal('server/newRawLogs'),
  thingName: ThingName,
  /** Samples per channel code, oldest first, times in unix milliseconds. */
  logs: Type.Record(Type.String(), Type.Array(LatestValue)),
});
export const DeviceConfigAction = Type.Object({
  type: Type.Literal('server/deviceConfig'),
  thingName: ThingName,
  config: Type.Omit(ConfigFrame, ['v', 'type', 't']),
});
export const HealthAction = Type.Object({
  type: Type.Literal('server/health'),
  thingName: ThingName,
  health: DeviceHealth,
});
export const ConnectionStateAction = Type.Object({
  type: Type.Literal('server/connectionState'),
  thingName: ThingName,
  isConnected: Type.Boolean(),
  lastConnection: Type.Union([Type.Number(), Type.Null()]),
  lastDisconnection: Type.Union([Type.Number(), Type.Null()]),
});
export const AlarmsAction = Type.Object({
  type: Type.Literal('server/alarms'),
  thingName: ThingName,
  status: Type.Object({ sp: Type.Optional(Type.Integer()) }, { additionalProperties: true }),
  /**
   * The device's open channel alarms (active, or not yet acknowledged), sent when one is raised,
   * cleared, acknowledged or configured; absent when only `status` changed.
   */
  alarms: Type.Optional(Type.Array(AlarmRecord)),
});
export const SetpointStatusAction = Type.Object({
  type: Type.Literal('server/setpointStatus'),
  thingName: ThingName,
  code: Type.String(),
  state: Type.Union([Type.Literal('on'), Type.Literal('off')]),
  value: Type.Number(),
});
export const DemoLatestValueAction = Type.Object({
  type: Type.Literal('server/demoLatestValue'),
  thingName: ThingName,
  code: Type.String(),
  latest: LatestValue,
});
/**
 * A device's over-the-air update moved (submitted, approved, sent, progress reported, finished) or the
 * device was reloaded after it (`reloadedAt`, 30 s after it finished).
 */
export const OtaProgressAction = Type.Object({
  type: Type.Literal('server/otaProgress'),
  thingName: ThingName,
  deviceId: Type.String(),
  update: OtaUpdate,
  otaPendingSubmittedAt: Type.Union([Type.Number(), Type.Null()]),
  /** Set once the console should read the device again (the update finished 30 s ago). */
  reloadedAt: Type.Optional(Type.Number()),
});
/**
 * A report's generation moved (progress, ready, failed, deleting): sent to the signed-in users who
 * may see the report. The console also polls a generating report every 10 s (§9), so a browser on
 * another instance of a cluster still sees the change.
 */
export const ReportProgressAction = Type.Object({
  type: Type.Literal('server/reportProgress'),
  reportId: Type.String(),
  accountId: Type.String(),
  state: ReportStateSchema,
  /** 0 to 100 while GENERATING. */
  percent: Type.Union([Type.Number(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});
/**
 * A brewing tank changed (a batch started, ended or was edited, the tank changed state, its gravity
 * estimate froze): the whole tank as `GET /brew/overview` shows it, to the sockets watching its device.
 */
export const BrewTankAction = Type.Object({
  type: Type.Literal('server/brewTank'),
  thingName: ThingName,
  groupId: Type.String(),
  tank: Tank,
});
/** How often at most the device table's live feed sends a batch to a browser. */
export const DEVICE_TABLE_FEED_INTERVAL_MS = 1000;

/**
 * What changed of one device in the table, by thing name: only the fields that changed are present,
 * named as the table's columns (`@fieldlink/api/device-table`). `otaState` and `otaPercent` are the
 * device's latest update (null: none); `otaPendingSubmittedAt` its wait for an administrator.
 */
export const DeviceTableChange = Type.Object(
  {
    thingName: ThingName,
    isConnected: Type.Optional(Type.Boolean()),
    lastConnection: Type.Optional(Nullable(Type.Number())),
    lastDisconnection: Type.Optional(Nullable(Type.Number())),
    fw: Type.Optional(Nullable(Type.String())),
    otaState: Type.Optional(Nullable(OtaStateSchema)),
    otaPercent: Type.Optional(Nullable(Type.Number())),
    otaPendingSubmittedAt: Type.Optional(Nullable(Type.Number())),
  },
  { additionalProperties: false },
);
export type DeviceTableChange = Static<typeof DeviceTableChange>;
/**
 * A batch of the device table's live feed: the devices in the caller's scope that changed since the
 * last batch, each once with its latest fields, at most one batch per {@link DEVICE_TABLE_FEED_INTERVAL_MS}.
 */
export const DeviceTableChangesAction = Type.Object({
  type: Type.Literal('server/deviceTableChanges'),
  /** When the batch was sent (unix ms): the table is current as of then. */
  at: Type.Number(),
  changes: Type.Array(DeviceTableChange),
  /** Too much changed at once to send piece by piece: read the table again instead. */
  reload: Type.Optional(Type.Boolean()),
});

/** Sent once the socket is authenticated, and when the server closes it on purpose. */
export const ErrorAction = Type.Object({ type: Type.Literal('server/error'), message: Type.String() });

/** Server -> browser. */
export const ServerAction = Type.Union([
  ReplyAction,
  NewRawLogsAction,
  DeviceConfigAction,
  HealthAction,
  ConnectionStateAction,
  AlarmsAction,
  SetpointStatusAction,
  DemoLatestValueAction,
  ErrorAction,
  OtaProgressAction,
  ReportProgressAction,
  BrewTankAction,
  DeviceTableChangesAction,
]);
export type ServerAction = Static<typeof ServerAction>;
export type ServerActionOf<T extends ServerAction['type']> = Extract<ServerAction, { type: T }>;

/** Close codes the server uses. */
export const REALTIME_CLOSE = {
  /** Token missing, invalid, expired or revoked. */
  unauthorized: 4401,
  /** Origin not allowed. */
  forbiddenOrigin: 4403,
  /** The user's permissions or place in the tree changed: reconnect to be authorised afresh. */
  accessChanged: 4409,
  /** Slow consumer: too much unsent data queued. */
  tooSlow: 4408,
  /** The server is shutting down. */
  goingAway: 1001,
} as const;
